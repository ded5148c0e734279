package prefill

import (
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
)

// swiftServer serves a memStore over Swift's object API with tempauth-like
// tokens; it answers 401 to a token it has revoked.
type swiftServer struct {
	m       *memStore
	token   atomic.Value // the valid token
	auths   atomic.Int64
	revoked atomic.Bool
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
	case r.Method == http.MethodPut:
		n, _ := io.Copy(io.Discard, r.Body)
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
