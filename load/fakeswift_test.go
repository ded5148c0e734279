package load

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeSwift is a small in-memory Swift: auth v1.0, containers, objects
// (sizes only), and a switch to expire the current token.
type fakeSwift struct {
	*httptest.Server
	mu       sync.Mutex
	token    string
	tokens   int                 // tokens issued
	objects  map[string]int64    // "c/o" -> size
	conts    map[string]bool     // containers
	methods  map[string]int      // requests by method (object and container)
	statuses map[int]int         // answers by status
	headers  map[string][]string // last value of some request headers, by name
	large    fakeLarge           // content, manifests, policies (fakeswift_large_test.go)
}

func newFakeSwift(t *testing.T) *fakeSwift {
	f := &fakeSwift{objects: map[string]int64{}, conts: map[string]bool{}, methods: map[string]int{},
		statuses: map[int]int{}, headers: map[string][]string{}, large: newFakeLarge()}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// expire makes the current token invalid (as after its lifetime).
func (f *fakeSwift) expire() {
	f.mu.Lock()
	f.token = "expired"
	f.mu.Unlock()
}

func (f *fakeSwift) answer(w http.ResponseWriter, code int) {
	f.statuses[code]++
	w.WriteHeader(code)
}

func (f *fakeSwift) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.URL.Path == "/auth/v1.0" {
		if r.Header.Get("X-Auth-User") != "test:tester" || r.Header.Get("X-Auth-Key") != "testing" {
			f.answer(w, http.StatusUnauthorized)
			return
		}
		f.tokens++
		f.token = "tok" + strconv.Itoa(f.tokens)
		w.Header().Set("X-Auth-Token", f.token)
		w.Header().Set("X-Storage-Url", f.URL+"/v1/AUTH_test")
		f.answer(w, http.StatusOK)
		return
	}
	if tok := r.Header.Get("X-Auth-Token"); tok == "" || tok != f.token {
		f.answer(w, http.StatusUnauthorized)
		return
	}
	for _, h := range []string{"X-Delete-After", "X-Storage-Policy", "X-Container-Meta-Test"} {
		if v := r.Header.Values(h); v != nil {
			f.headers[h] = v
		}
	}
	f.methods[r.Method]++
	path := strings.TrimPrefix(r.URL.Path, "/v1/AUTH_test/")
	cont, obj, isObj := strings.Cut(path, "/")
	if !isObj {
		if !f.container(w, r, cont) {
			return
		}
		f.conts[cont] = true
		f.answer(w, http.StatusCreated)
		return
	}
	f.object(w, r, cont, path)
	_ = obj
}

func (f *fakeSwift) object(w http.ResponseWriter, r *http.Request, cont, key string) {
	size, exists := f.objects[key]
	switch r.Method {
	case http.MethodPut:
		if !f.conts[cont] {
			f.answer(w, http.StatusNotFound)
			return
		}
		f.putObject(w, r, key)
	case http.MethodGet, http.MethodHead:
		if !exists {
			f.answer(w, http.StatusNotFound)
			return
		}
		size = f.large.size(key, size, f.objects)
		w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
		f.answer(w, http.StatusOK)
		if r.Method == http.MethodGet {
			f.large.write(w, key, f.objects)
		}
	case http.MethodDelete:
		if r.URL.Query().Get("multipart-manifest") == "delete" {
			f.multipartDelete(w, key, exists)
			return
		}
		if !exists {
			f.answer(w, http.StatusNotFound)
			return
		}
		f.remove(key)
		f.answer(w, http.StatusNoContent)
	default:
		f.answer(w, http.StatusMethodNotAllowed)
	}
}

// put stores an object directly (a prefill).
func (f *fakeSwift) put(cont, obj string, size int64) {
	f.mu.Lock()
	f.conts[cont] = true
	f.objects[cont+"/"+obj] = size
	delete(f.large.start, cont+"/"+obj) // the generated content from 0
	f.mu.Unlock()
}

// count returns how many requests of method were served.
func (f *fakeSwift) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.methods[method]
}
