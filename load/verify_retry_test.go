package load

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// faultyGET serves an object of size bytes of the generated content,
// failing the first attempts of every GET as fail says: a 503 with an
// error page, or a body cut off halfway (a reset mid-stream).
type faultyGET struct {
	mu    sync.Mutex
	size  int
	fail  []string // per attempt: "503", "cut", "507" or "" (the object)
	calls int
}

func (f *faultyGET) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	how := ""
	if f.calls < len(f.fail) {
		how = f.fail[f.calls]
	}
	f.calls++
	f.mu.Unlock()
	switch how {
	case "503", "507":
		code, _ := strconv.Atoi(how)
		http.Error(w, "<html><h1>Service Unavailable</h1><p>The server is currently unavailable.</p></html>", code)
	case "cut":
		w.Header().Set("Content-Length", strconv.Itoa(f.size))
		_, _ = w.Write(pattern[:f.size/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection is closed mid-body
	default:
		w.Header().Set("Content-Length", strconv.Itoa(f.size))
		_, _ = w.Write(pattern[:f.size])
	}
}

// A verified GET that a fault failed before its retry succeeded is a
// success, not corrupt: the verifier checks only the last attempt's body
// (not a 503's error page, nor the half of a body cut off before). A GET
// whose every attempt fails keeps the fault's own cause (http_503,
// http_507), never corrupt. Both through the session (raw HTTP/1.1) and
// through net/http (the client a session falls back to).
func TestVerifiedRetryIsNoCorrupt(t *testing.T) {
	const size = 60000 // within one block of the pattern
	for _, c := range []struct {
		fail []string
		want string // ErrorKey of the outcome
	}{
		{[]string{"503"}, ""},
		{[]string{"cut"}, ""},
		{[]string{"503", "cut", "503"}, ""},
		{[]string{"503", "503", "503", "503"}, "http_503"},
		{[]string{"507"}, "http_507"},
	} {
		for _, viaSession := range []bool{true, false} {
			f := &faultyGET{size: size, fail: c.fail}
			srv := httptest.NewServer(f)
			cl := NewClient(StaticAuth{StorageURL: srv.URL + "/v1/AUTH_t", AuthToken: "t"}, 1)
			v := NewVerifier()
			req := &Request{Method: http.MethodGet, Container: "c", Object: "o", Sink: v.Reset()}
			var o Outcome
			if viaSession {
				s := cl.NewSession(context.Background())
				o = v.Check(s.Do(req, time.Now()))
				s.Close()
			} else {
				o = v.Check(cl.Do(context.Background(), req, time.Now()))
			}
			srv.Close()
			if got := o.ErrorKey(); got != c.want {
				t.Errorf("attempts failing %v (session %v): outcome %q (status %d, err %v), want %q",
					c.fail, viaSession, got, o.Status, o.Err, c.want)
			}
		}
	}
}
