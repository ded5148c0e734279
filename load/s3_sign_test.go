package load

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// TestFastSignerSignsAsSmithy compares the fast signer's heads with
// smithy-go's signatures of the same requests at the same time: the same
// Authorization, X-Amz-Date and X-Amz-Content-Sha256, the wire path the
// one signed, across addressing styles, payload modes, base paths, days.
func TestFastSignerSignsAsSmithy(t *testing.T) {
	reqs := []Request{
		{Method: http.MethodGet, Container: "base1_64K_000003_default_policy", Object: "64KiB_000042"},
		{Method: http.MethodPut, Container: "Base_0", Object: "tiny_000001", Size: 1234, Offset: 0},
		{Method: http.MethodPut, Container: "Base_0", Object: "empty", Size: 0},
		{Method: http.MethodDelete, Container: "b", Object: "dir/with space~and.dots"},
		{Method: http.MethodHead, Container: "b", Object: "k", Header: http.Header{"Range": {"bytes=0-9"}}},
		{Method: http.MethodPut, Container: "New_Bucket", Header: http.Header{"X-Storage-Policy": {"silver"}}},
	}
	times := []time.Time{time.Date(2026, 12, 5, 1, 2, 3, 0, time.UTC), time.Date(2026, 12, 6, 23, 59, 59, 0, time.FixedZone("x", 3600))}
	for _, endpoint := range []string{"http://127.0.0.1:8080", "http://s3.example:80/base/"} {
		for _, style := range []bool{true, false} {
			for _, hashed := range []bool{false, true} {
				api, err := NewS3(S3Config{Endpoint: endpoint, AccessKey: "acct:user", SecretKey: "s3cr3t", Region: "reg-1",
					PathStyle: style, SignPayload: hashed})
				if err != nil {
					t.Fatal(err)
				}
				a := api.(*s3API)
				s := a.getSigner()
				for _, now := range times {
					for i := range reqs {
						r := &reqs[i]
						if !fastOK(r) {
							t.Fatalf("request %d takes smithy's path", i)
						}
						fast := parseHead(t, s.appendSigned(nil, r, now))
						want, err := a.signed(context.Background(), r, false, now)
						if err != nil {
							t.Fatal(err)
						}
						for _, h := range []string{"Authorization", "X-Amz-Date", "X-Amz-Content-Sha256"} {
							if fast.Header.Get(h) != want.Header.Get(h) {
								t.Errorf("%s %v style %v hashed %v %s: %s\n fast   %q\n smithy %q", endpoint, now, style, hashed,
									r.Method, h, fast.Header.Get(h), want.Header.Get(h))
							}
						}
						if fast.Host != want.Host || fast.URL.EscapedPath() != want.URL.EscapedPath() {
							t.Errorf("wire %s %s, signed %s %s", fast.Host, fast.URL.EscapedPath(), want.Host, want.URL.EscapedPath())
						}
					}
				}
			}
		}
	}
}

func parseHead(t *testing.T, head []byte) *http.Request {
	t.Helper()
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
	if err != nil {
		t.Fatalf("%v:\n%s", err, head)
	}
	return req
}

// TestFastSignerAllocatesNothing: a session's signed head costs no
// allocation once its buffers have grown (the day's key derived once).
func TestFastSignerAllocatesNothing(t *testing.T) {
	api, err := NewS3(S3Config{Endpoint: "http://127.0.0.1:1", AccessKey: "a:u", SecretKey: "s"})
	if err != nil {
		t.Fatal(err)
	}
	a := api.(*s3API)
	r := &Request{Method: http.MethodGet, Container: "base1_64K_000003_default_policy", Object: "64KiB_000042"}
	buf := make([]byte, 0, 1024)
	if n := testing.AllocsPerRun(100, func() {
		buf, _ = a.appendHead(buf[:0], nil, "", r)
	}); n > 0 && !raceOn {
		t.Errorf("%v allocations per signed head, want 0", n)
	}
}

// BenchmarkS3Head measures a session's signed S3 head, against Swift's
// (go test -bench Head -benchmem ./load).
func BenchmarkS3Head(b *testing.B) {
	api, err := NewS3(S3Config{Endpoint: "http://127.0.0.1:1", AccessKey: "a:u", SecretKey: "s", PathStyle: true})
	if err != nil {
		b.Fatal(err)
	}
	r := &Request{Method: http.MethodGet, Container: "base1_64K_000003_default_policy", Object: "64KiB_000042"}
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = api.appendHead(buf[:0], nil, "", r)
	}
}

// BenchmarkSwiftHead is Swift's head of the same request.
func BenchmarkSwiftHead(b *testing.B) {
	c := staticClient("http://127.0.0.1:1", 1)
	u, _ := url.Parse("http://127.0.0.1:1/v1/AUTH_t")
	r := &Request{Method: http.MethodGet, Container: "base1_64K_000003_default_policy", Object: "64KiB_000042"}
	buf := make([]byte, 0, 1024)
	api := c.api()
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = api.appendHead(buf[:0], u, "tok", r)
	}
}
