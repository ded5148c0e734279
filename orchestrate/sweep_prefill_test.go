package orchestrate

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"benchbed/load"
	"benchbed/load/prefill"
)

// memSwift is an account in memory behind Swift's HTTP API, with tokens
// that expire when told to.
type memSwift struct {
	mu      sync.Mutex
	objects map[string]map[string]int64 // container -> name -> bytes
	token   string
	auths   int
}

func (m *memSwift) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.URL.Path == "/auth/v1.0" {
		m.auths++
		m.token = "tok" + strings.Repeat("x", m.auths)
		w.Header().Set("X-Storage-Url", "http://"+r.Host+"/v1/AUTH_t")
		w.Header().Set("X-Auth-Token", m.token)
		return
	}
	if r.Header.Get("X-Auth-Token") != m.token {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/v1/AUTH_t/"), "/", 2)
	c := parts[0]
	switch {
	case len(parts) == 1 && r.Method == http.MethodPut:
		if m.objects[c] == nil {
			m.objects[c] = map[string]int64{}
		}
		w.WriteHeader(http.StatusCreated)
	case len(parts) == 1 && r.Method == http.MethodGet:
		m.list(w, r, c)
	case r.Method == http.MethodPut:
		n, _ := io.Copy(io.Discard, r.Body)
		m.objects[c][parts[1]] = n
		w.WriteHeader(http.StatusCreated)
	case r.Method == http.MethodHead:
		n, ok := m.objects[c][parts[1]]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
	}
}

func (m *memSwift) list(w http.ResponseWriter, r *http.Request, c string) {
	var names []string
	for n := range m.objects[c] {
		if n > r.URL.Query().Get("marker") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	type obj struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	}
	out := []obj{}
	for _, n := range names {
		out = append(out, obj{n, m.objects[c][n]})
	}
	json.NewEncoder(w).Encode(out)
}

func TestSwiftStorePrefillsAndVerifies(t *testing.T) {
	m := &memSwift{objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(m)
	defer srv.Close()
	sc, err := load.ParseScenario([]byte(agentsScenario))
	if err != nil {
		t.Fatal(err)
	}
	l, err := prefill.NewLayout(sc)
	if err != nil {
		t.Fatal(err)
	}
	auth := load.NewV1Auth(srv.Client(), srv.URL+"/auth/v1.0", "t:u", "k")
	st := &swiftStore{hc: srv.Client(), auth: auth}
	var cnt prefill.Counters
	if err := prefill.Run(context.Background(), l, st, prefill.Options{Concurrency: 4}, &cnt); err != nil {
		t.Fatal(err)
	}
	if got := cnt.Snapshot(); got.Put != 20 || got.Failed != 0 {
		t.Fatalf("first prefill %+v, want 20 put", got)
	}
	var n int
	for _, objs := range m.objects {
		for _, b := range objs {
			n++
			if b != 10 {
				t.Fatalf("object of %d bytes, want 10", b)
			}
		}
	}
	if n != 20 {
		t.Fatalf("%d objects stored", n)
	}
	// The token expires: the store re-authenticates once and goes on; the
	// objects are found, not put again.
	m.mu.Lock()
	m.token = "expired"
	m.mu.Unlock()
	cnt = prefill.Counters{}
	if err := prefill.Run(context.Background(), l, st, prefill.Options{Concurrency: 4}, &cnt); err != nil {
		t.Fatal(err)
	}
	if got := cnt.Snapshot(); got.Put != 0 || got.Skipped != 20 || m.auths != 2 {
		t.Fatalf("verify %+v after %d auths, want 20 skipped and one re-auth", got, m.auths)
	}
	if _, err := st.HeadObject(context.Background(), "none", "x"); err != prefill.ErrNotFound {
		t.Fatalf("head of a missing object: %v", err)
	}
}
