package prefill

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"benchbed/load"
	"benchbed/plan/scenario"
)

// swiftServer serves a memStore over Swift's object API with tempauth-like
// tokens; it answers 401 to a token it has revoked.
type swiftServer struct {
	m         *memStore
	token     atomic.Value // the valid token
	auths     atomic.Int64
	revoked   atomic.Bool
	manifests atomic.Int64 // SLO manifests stored
}

func (s *swiftServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/auth/v1.0" {
		if r.Header.Get("X-Auth-Key") != "testing" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		n := s.auths.Add(1)
		tok := "tk" + strconv.FormatInt(n, 10)
		s.token.Store(tok)
		w.Header().Set("X-Auth-Token", tok)
		w.Header().Set("X-Storage-Url", "http://"+r.Host+"/v1/AUTH_test")
		return
	}
	if r.Header.Get("X-Auth-Token") != s.token.Load() || s.revoked.CompareAndSwap(true, false) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/v1/AUTH_test/"), "/", 2)
	ctx := r.Context()
	switch {
	case len(parts) == 1 && r.Method == http.MethodPut:
		_ = s.m.PutContainer(ctx, parts[0])
		w.WriteHeader(http.StatusCreated)
	case len(parts) == 1 && r.Method == http.MethodGet:
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		type ent struct {
			Name  string `json:"name"`
			Bytes int64  `json:"bytes"`
		}
		page := []ent{}
		_, _ = s.m.List(ctx, parts[0], r.URL.Query().Get("marker"), limit, func(n string, b int64) { page = append(page, ent{n, b}) })
		_ = json.NewEncoder(w).Encode(page)
	case r.Method == http.MethodPut && r.URL.Query().Get("multipart-manifest") == "put":
		s.putManifest(w, r, parts[0], parts[1])
	case r.Method == http.MethodPut:
		head := make([]byte, 64)
		k, _ := io.ReadFull(r.Body, head)
		want := make([]byte, k)
		_, _ = io.ReadFull(load.Content(0, int64(k)), want)
		if !bytes.Equal(head[:k], want) && !strings.HasSuffix(parts[0], "_segments") { // segments hold it from their offset
			http.Error(w, "not the generated content", http.StatusBadRequest)
			return
		}
		n, _ := io.Copy(io.Discard, r.Body)
		n += int64(k)
		if n != r.ContentLength {
			http.Error(w, "short body", http.StatusBadRequest)
			return
		}
		if err := s.m.PutObject(ctx, parts[0], parts[1], n); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusCreated)
	case r.Method == http.MethodHead:
		size, err := s.m.HeadObject(ctx, parts[0], parts[1])
		if err != nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// putManifest stores a static large object's manifest as an object of its
// segments' total size (as Swift lists it), refusing a missing segment or
// a wrong size_bytes as Swift does.
func (s *swiftServer) putManifest(w http.ResponseWriter, r *http.Request, c, name string) {
	var segs []struct {
		Path      string `json:"path"`
		SizeBytes int64  `json:"size_bytes"`
	}
	if err := json.NewDecoder(r.Body).Decode(&segs); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var total int64
	for _, sg := range segs {
		sc, so, _ := strings.Cut(strings.TrimPrefix(sg.Path, "/"), "/")
		if n, err := s.m.HeadObject(r.Context(), sc, so); err != nil || n != sg.SizeBytes {
			http.Error(w, "bad segment "+sg.Path, http.StatusBadRequest)
			return
		}
		total += sg.SizeBytes
	}
	_ = s.m.PutObject(r.Context(), c, name, total)
	s.manifests.Add(1)
	w.WriteHeader(http.StatusCreated)
}

func TestHTTPStorePrefillsLargeObjects(t *testing.T) {
	srv := &swiftServer{m: newMemStore()}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	st, err := NewHTTPStore(load.AuthSpec{URL: ts.URL + "/auth/v1.0", User: "test:tester", Key: "testing"}, 4, "ec42")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse([]byte(`{"name": "l", "crud_profile": [0, 1, 0, 0], "run_seconds": 1,
	  "sizes": [{"name": "big", "size_min": 2500, "size_max": 2600}, {"name": "small", "size_min": 10, "size_max": 10}],
	  "initial_files": {"big": 5, "small": 3}, "container_count": 2, "segment_size": 1000}`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLayout(sc)
	if err != nil {
		t.Fatal(err)
	}
	var cnt Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 4}, &cnt); err != nil {
		t.Fatal(err)
	}
	segs := 0
	for c, objs := range srv.m.objs {
		if strings.HasSuffix(c, "_segments") {
			segs += len(objs)
		}
	}
	if cnt.Snapshot().Put != 8 || srv.manifests.Load() != 5 || segs != 15 {
		t.Fatalf("put %d, %d manifests, %d segments; want 8, 5, 15 (3 a manifest)", cnt.Snapshot().Put, srv.manifests.Load(), segs)
	}
	var again Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 4}, &again); err != nil || again.Snapshot().Put != 0 {
		t.Fatalf("rerun: %v, %+v: the listing must find the manifests", err, again.Snapshot())
	}
}

func TestHTTPStorePrefillsAndVerifiesOverSwiftAPI(t *testing.T) {
	srv := &swiftServer{m: newMemStore()}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	st, err := NewHTTPStore(load.AuthSpec{URL: ts.URL + "/auth/v1.0", User: "test:tester", Key: "testing"}, 8, "")
	if err != nil {
		t.Fatal(err)
	}
	l := testLayout(t, 2, 16000) // more than one listing page per container
	var cnt Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 8}, &cnt); err != nil {
		t.Fatal(err)
	}
	if cnt.Snapshot().Put != l.Total() {
		t.Fatalf("put %d of %d", cnt.Snapshot().Put, l.Total())
	}
	srv.revoked.Store(true) // the token expires: one 401, one re-auth
	verifyAll(t, l, st)
	if srv.auths.Load() != 2 {
		t.Fatalf("%d auths, want 2 (one re-auth after the 401)", srv.auths.Load())
	}
	o := l.At(5)
	size, err := st.HeadObject(context.Background(), l.Containers()[o.Container], o.Name)
	if err != nil || size != o.Size {
		t.Fatalf("HEAD = %d, %v; want %d", size, err, o.Size)
	}
	if _, err := st.HeadObject(context.Background(), l.Containers()[0], "nope"); err != ErrNotFound {
		t.Fatalf("HEAD of a missing object: %v", err)
	}
	var again Counters
	if err := Run(context.Background(), l, st, Options{Verify: "head", Concurrency: 4, Part: 0, Parts: 8}, &again); err != nil {
		t.Fatal(err)
	}
	if got := again.Snapshot(); got.Put != 0 || got.Skipped == 0 || got.Requests != got.Skipped {
		t.Fatalf("HEAD-verified rerun: %+v", got)
	}
}

func TestHTTPStoreBadKeyIsAnError(t *testing.T) {
	ts := httptest.NewServer(&swiftServer{m: newMemStore()})
	defer ts.Close()
	st, err := NewHTTPStore(load.AuthSpec{URL: ts.URL + "/auth/v1.0", User: "test:tester", Key: "wrong"}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	err = Run(context.Background(), testLayout(t, 1, 3), st, Options{}, &Counters{})
	if err == nil || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("err = %v: want an auth error that does not show the key", err)
	}
}
