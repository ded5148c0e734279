package replay

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/plan/proxylog"
)

// store is a Swift account in memory that remembers every object request
// in order.
type store struct {
	mu      sync.Mutex
	objects map[string]int64
	log     []string // "METHOD container/object"
}

func (s *store) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, "/v1/AUTH_bench/")
	if !strings.Contains(path, "/") { // a container
		w.WriteHeader(http.StatusCreated)
		return
	}
	s.log = append(s.log, r.Method+" "+path)
	n, ok := s.objects[path]
	switch r.Method {
	case http.MethodPut:
		b, _ := io.Copy(io.Discard, r.Body)
		s.objects[path] = b
		w.WriteHeader(http.StatusCreated)
	case http.MethodDelete:
		delete(s.objects, path)
		w.WriteHeader(map[bool]int{true: http.StatusNoContent, false: http.StatusNotFound}[ok])
	default:
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		if r.Method == http.MethodGet {
			_, _ = w.Write(make([]byte, n))
		}
	}
}

// logLine is a default-template line of a request on /v1/AUTH_prod/c/o.
func logLine(at float64, method, object string, status int, recvd, sent int64, took, source string) string {
	dash := func(n int64) string {
		if n == 0 {
			return "-"
		}
		return strconv.FormatInt(n, 10)
	}
	src := map[bool]string{true: "-", false: source}[source == ""]
	ts := strconv.FormatFloat(1796428800+at, 'f', 9, 64)
	return "1.2.3.4 1.2.3.4 05/Dec/2026/00/00/00 " + method + " /v1/AUTH_prod/photos/" + object +
		" HTTP/1.0 " + strconv.Itoa(status) + " - curl AUTH_tksecret " + dash(recvd) + " " + dash(sent) +
		" - tx - " + took + " " + src + " - " + ts + " " + ts + " 0"
}

// TestReplayIssuesTheLoggedSequence: the objects read before written are
// prefilled with their logged size, then the client object requests are
// issued in the logged order under hashed names, subrequests and
// container requests skipped, production latency recorded beside ours.
func TestReplayIssuesTheLoggedSequence(t *testing.T) {
	lines := []string{
		logLine(0.00, "GET", "old", 200, 0, 300, "0.0100", ""),
		logLine(0.01, "GET", "old/seg1", 200, 0, 300, "0.0050", "SLO"),
		logLine(0.02, "PUT", "new", 201, 1000, 0, "0.0200", ""),
		logLine(0.03, "HEAD", "new", 200, 0, 0, "0.0010", ""),
		logLine(0.04, "GET", "new", 200, 0, 1000, "0.0030", ""),
		logLine(0.05, "GET", "missing", 404, 0, 70, "0.0010", ""),
		logLine(0.06, "DELETE", "old", 204, 0, 0, "0.0040", ""),
		"garbled line",
	}
	p := filepath.Join(t.TempDir(), "proxy.log")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &store{objects: map[string]int64{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	tp, _ := proxylog.Compile(proxylog.DefaultTemplate)
	cfg := Config{Client: &load.Client{HTTP: srv.Client(), Auth: load.StaticAuth{StorageURL: srv.URL + "/v1/AUTH_bench", AuthToken: "t"}},
		Template: tp, Logs: []string{p}, Speed: 10, Base: "replay", Containers: 3, Users: 1}
	res, err := Run(context.Background(), cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	name := func(o string) string {
		c, n := cfg.Name(proxylog.Hash("AUTH_prod", "photos", o))
		return c + "/" + n
	}
	want := []string{"PUT " + name("old"), "GET " + name("old"), "PUT " + name("new"), "HEAD " + name("new"),
		"GET " + name("new"), "GET " + name("missing"), "DELETE " + name("old")}
	if strings.Join(s.log, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(s.log, "\n"), strings.Join(want, "\n"))
	}
	if res.Prefilled != 1 || res.Skipped != 1 || res.Stats.Garbled != 1 {
		t.Errorf("prefilled %d, skipped %d, %+v", res.Prefilled, res.Skipped, res.Stats)
	}
	if got := res.Recording["GET"]; got == nil || got.LastByte.Count() != 2 || got.Errors["http_404"] != 1 {
		t.Errorf("GETs: %+v", got)
	}
	if h := res.Production["GET"]; h == nil || h.Count() != 3 || h.Quantile(1) < 9*time.Millisecond {
		t.Errorf("production GET times: %v", h)
	}
	var b strings.Builder
	if err := WriteTable(&b, res); err != nil || !strings.Contains(b.String(), "production") || strings.Contains(b.String(), "photos") {
		t.Errorf("%v\n%s", err, b.String())
	}
}
