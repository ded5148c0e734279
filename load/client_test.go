package load

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func v1Client(f *fakeSwift, key string) *Client {
	hc := &http.Client{Transport: NewTransport(4)}
	return &Client{HTTP: hc, Auth: NewV1Auth(hc, f.URL+"/auth/v1.0", "test:tester", key), MaxRetries: 2}
}

func do(t *testing.T, c *Client, r *Request) Outcome {
	t.Helper()
	return c.Do(context.Background(), r, time.Now())
}

func TestClientPutGetHeadDelete(t *testing.T) {
	f := newFakeSwift(t)
	c := v1Client(f, "testing")
	if o := do(t, c, &Request{Method: http.MethodPut, Container: "c"}); o.Status != http.StatusCreated {
		t.Fatalf("PUT container: %+v", o)
	}
	o := do(t, c, &Request{Method: http.MethodPut, Container: "c", Object: "o", Size: 100000})
	if !o.OK() || f.objects["c/o"] != 100000 {
		t.Fatalf("PUT object: %+v, stored %d bytes", o, f.objects["c/o"])
	}
	var got strings.Builder
	o = do(t, c, &Request{Method: http.MethodGet, Container: "c", Object: "o", Sink: &got})
	if !o.OK() || got.Len() != 100000 || o.LastByte < o.FirstByte || o.FirstByte <= 0 {
		t.Fatalf("GET: %+v, %d bytes", o, got.Len())
	}
	if got.String()[:65536] != string(pattern) || got.String()[65536:] != string(pattern[:100000-65536]) {
		t.Error("GET body is not the pattern the PUT sent")
	}
	if o = do(t, c, &Request{Method: http.MethodHead, Container: "c", Object: "o"}); o.Status != 200 {
		t.Fatalf("HEAD: %+v", o)
	}
	if o = do(t, c, &Request{Method: http.MethodDelete, Container: "c", Object: "o"}); o.Status != 204 {
		t.Fatalf("DELETE: %+v", o)
	}
	o = do(t, c, &Request{Method: http.MethodGet, Container: "c", Object: "o"})
	if o.OK() || o.ErrorKey() != "http_404" {
		t.Fatalf("GET after DELETE: %+v key %q", o, o.ErrorKey())
	}
}

func TestReauthOn401AndTokenReuse(t *testing.T) {
	f := newFakeSwift(t)
	f.put("c", "o", 10)
	c := v1Client(f, "testing")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if o := do(t, c, &Request{Method: http.MethodGet, Container: "c", Object: "o"}); !o.OK() {
				t.Errorf("GET: %+v", o)
			}
		}()
	}
	wg.Wait()
	if f.tokens != 1 {
		t.Fatalf("8 users took %d tokens, want 1 shared", f.tokens)
	}
	f.expire()
	o := do(t, c, &Request{Method: http.MethodGet, Container: "c", Object: "o"})
	if !o.OK() || o.Retries != 1 || f.tokens != 2 {
		t.Fatalf("after expiry: %+v, tokens %d; want success after 1 retry and a new token", o, f.tokens)
	}
}

func TestV1AuthBadKeyNeverShowsKey(t *testing.T) {
	f := newFakeSwift(t)
	c := v1Client(f, "s3cr3t-key")
	o := do(t, c, &Request{Method: http.MethodGet, Container: "c", Object: "o"})
	if !errors.Is(o.Err, ErrAuth) || o.ErrorKey() != "auth" || o.Retries != 0 {
		t.Fatalf("bad key: %+v", o)
	}
	if strings.Contains(o.Err.Error(), "s3cr3t-key") {
		t.Fatalf("the error shows the key: %v", o.Err)
	}
	if !strings.Contains(o.Err.Error(), "401") {
		t.Errorf("the error does not say 401: %v", o.Err)
	}
}

func TestKeystoneV3(t *testing.T) {
	var body map[string]any
	ks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v3/auth/tokens" {
			w.WriteHeader(404)
			return
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("X-Subject-Token", "ks-token")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"token":{"catalog":[{"type":"identity","endpoints":[]},
		  {"type":"object-store","endpoints":[
		    {"interface":"internal","region":"r1","url":"http://internal/v1/AUTH_p"},
		    {"interface":"public","region":"r1","url":"http://public/v1/AUTH_p"}]}]}}`))
	}))
	defer ks.Close()
	a := NewKeystoneV3Auth(ks.Client(), KeystoneV3{URL: ks.URL + "/v3", User: "u", Password: "pw", Project: "p"})
	su, tok, err := a.Token(context.Background())
	if err != nil || su != "http://public/v1/AUTH_p" || tok != "ks-token" {
		t.Fatalf("got %q %q %v", su, tok, err)
	}
	pw := body["auth"].(map[string]any)["identity"].(map[string]any)["password"].(map[string]any)["user"].(map[string]any)
	if pw["password"] != "pw" || pw["name"] != "u" || pw["domain"].(map[string]any)["name"] != "Default" {
		t.Errorf("request body user = %v", pw)
	}
	bad := NewKeystoneV3Auth(ks.Client(), KeystoneV3{URL: ks.URL + "/v3", User: "u", Password: "pw", Project: "p", Region: "r9"})
	if _, _, err := bad.Token(context.Background()); !errors.Is(err, ErrAuth) {
		t.Errorf("no endpoint in region r9: err = %v", err)
	}
}

func TestStaticAuthAndTransportErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close() // nothing listens there any more
	c := &Client{HTTP: &http.Client{Transport: NewTransport(1)}, Auth: StaticAuth{StorageURL: addr + "/v1/A", AuthToken: "t"}, MaxRetries: 1}
	o := do(t, c, &Request{Method: http.MethodGet, Container: "c", Object: "o"})
	if o.ErrorKey() != "transport_refused" || o.Retries != 1 {
		t.Fatalf("closed port: %+v key %q", o, o.ErrorKey())
	}
}
