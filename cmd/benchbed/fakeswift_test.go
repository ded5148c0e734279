package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// memSwift is a small in-memory Swift account behind auth v1.0
// (test:tester / testing): containers with JSON listings, objects by size.
// failGet makes every GET of an object whose name ends in it answer 503
// ("": none).
type memSwift struct {
	*httptest.Server
	mu      sync.Mutex
	conts   map[string]map[string]int64
	puts    int
	gets    int
	failGet string
}

func newMemSwift(t *testing.T) *memSwift {
	m := &memSwift{conts: map[string]map[string]int64{}}
	m.Server = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.Close)
	return m
}

func (m *memSwift) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/auth/v1.0" {
		if r.Header.Get("X-Auth-Key") != "testing" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("X-Auth-Token", "tok")
		w.Header().Set("X-Storage-Url", m.URL+"/v1/AUTH_test")
		return
	}
	if r.Header.Get("X-Auth-Token") != "tok" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	n, _ := io.Copy(io.Discard, r.Body)
	m.mu.Lock()
	defer m.mu.Unlock()
	cont, obj, isObj := strings.Cut(strings.TrimPrefix(r.URL.Path, "/v1/AUTH_test/"), "/")
	switch {
	case !isObj && r.Method == http.MethodPut:
		if m.conts[cont] == nil {
			m.conts[cont] = map[string]int64{}
		}
		w.WriteHeader(http.StatusCreated)
	case !isObj:
		m.list(w, r, cont)
	default:
		m.object(w, r, cont, obj, n)
	}
}

func (m *memSwift) list(w http.ResponseWriter, r *http.Request, cont string) {
	objs, ok := m.conts[cont]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	type entry struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	}
	out := []entry{}
	marker := r.URL.Query().Get("marker")
	for _, name := range m.names(cont) {
		if name > marker {
			out = append(out, entry{name, objs[name]})
		}
	}
	_ = json.NewEncoder(w).Encode(out)
}

func (m *memSwift) object(w http.ResponseWriter, r *http.Request, cont, obj string, n int64) {
	objs := m.conts[cont]
	size, exists := objs[obj]
	switch {
	case objs == nil:
		w.WriteHeader(http.StatusNotFound)
	case r.Method == http.MethodPut:
		m.puts++
		objs[obj] = n
		w.WriteHeader(http.StatusCreated)
	case !exists:
		w.WriteHeader(http.StatusNotFound)
	case r.Method == http.MethodDelete:
		delete(objs, obj)
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet:
		if m.gets++; m.failGet != "" && strings.HasSuffix(obj, m.failGet) {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
		_, _ = w.Write(make([]byte, size))
	default:
		w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	}
}

// names lists a container's objects, sorted. The caller holds m.mu.
func (m *memSwift) names(cont string) []string {
	var out []string
	for name := range m.conts[cont] {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// all lists every object as "container/name", sorted.
func (m *memSwift) all() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for c := range m.conts {
		for _, name := range m.names(c) {
			out = append(out, c+"/"+name)
		}
	}
	slices.Sort(out)
	return out
}
