package metricstest

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
)

// KillingProxy starts a reverse proxy on loopback in front of r and
// returns its base URL (add r's path, e.g. /api/v1/write). Every request
// is passed on to r, but the second POST it receives (the first write
// after an exporter's probe, which is the first POST) kills r
// (Receiver.Kill) before it is passed on: that write and every later one
// fail, as a receiver that dies mid-run does. The proxy's own log of the
// failed writes is discarded; it is closed at the test's end.
func KillingProxy(t testing.TB, r *Receiver) string {
	t.Helper()
	target, err := url.Parse(r.Base)
	if err != nil {
		t.Fatalf("receiver %s: %v", r.Base, err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ErrorLog = log.New(io.Discard, "", 0) // the dead receiver's every batch
	var posts atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost && posts.Add(1) == 2 {
			r.Kill()
		}
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(front.Close)
	return front.URL
}
