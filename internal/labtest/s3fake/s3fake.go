// Package s3fake is an S3 server for tests that is no Swift: gofakes3's
// in-memory backend on loopback, behind a SigV4 check of every request
// (gofakes3 checks none) against one access key, secret and region, so
// that a wrong secret answers SignatureDoesNotMatch as S3 does, and a
// request whose wire form differs from what was signed (its host, path,
// query, headers or hashed body) is refused.
package s3fake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/smithy-go/aws-http-auth/credentials"
	"github.com/aws/smithy-go/aws-http-auth/sigv4"
	v4 "github.com/aws/smithy-go/aws-http-auth/v4"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Server is a running fake S3 endpoint.
type Server struct {
	URL       string         // http://127.0.0.1:port
	Backend   *s3mem.Backend // what it holds
	AccessKey string
	SecretKey string
	Region    string
	// Fail, when set, may answer a request with an S3 error instead
	// (status and code; 0 to serve it).
	Fail func(r *http.Request) (int, string)

	mu     sync.Mutex
	counts map[string]int // "POST uploads", "PUT part", "GET"...
}

// Start starts a fake S3 on 127.0.0.1 for the test's life, its buckets
// addressed by path, or by virtual host (bucket.host) when vhost.
func Start(t testing.TB, vhost bool) *Server {
	s := &Server{Backend: s3mem.New(), AccessKey: "test:tester", SecretKey: "testing", Region: "us-east-1",
		counts: map[string]int{}}
	faker := gofakes3.New(s.Backend, gofakes3.WithHostBucket(vhost))
	inner := faker.Server()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.count(r)
		if code, msg := s.verify(r); code != "" {
			s.answer(w, http.StatusForbidden, code, msg)
			return
		}
		if s.Fail != nil {
			if st, code := s.Fail(r); st != 0 {
				s.answer(w, st, code, "injected")
				return
			}
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// Count returns how many requests of a kind came: "POST uploads"
// (initiations), "PUT part", "POST uploadId" (completions), or a method.
func (s *Server) Count(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[kind]
}

func (s *Server) count(r *http.Request) {
	q := r.URL.Query()
	kind := r.Method
	switch {
	case q.Has("uploads"):
		kind += " uploads"
	case q.Has("partNumber"):
		kind += " part"
	case q.Has("uploadId"):
		kind += " uploadId"
	}
	s.mu.Lock()
	s.counts[kind]++
	s.mu.Unlock()
}

func (s *Server) answer(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message></Error>", code, msg)
}

// verify checks r's SigV4 signature as a server does, from what came on
// the wire; it returns an S3 error code and message, or "".
func (s *Server) verify(r *http.Request) (string, string) {
	auth := r.Header.Get("Authorization")
	cred, signed, ok := parseAuth(auth)
	if !ok {
		return "AccessDenied", "no SigV4 Authorization header"
	}
	parts := strings.Split(cred, "/")
	switch {
	case len(parts) != 5 || parts[3] != "s3":
		return "AuthorizationHeaderMalformed", "bad credential scope"
	case parts[0] != s.AccessKey:
		return "InvalidAccessKeyId", "unknown access key"
	case parts[2] != s.Region:
		return "AuthorizationHeaderMalformed", "the region is wrong; expecting " + s.Region
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return "AccessDenied", "no X-Amz-Date"
	}
	hash, code := s.payload(r)
	if code != "" {
		return code, "payload hash"
	}
	again := &http.Request{Method: r.Method, Host: r.Host, Header: http.Header{},
		URL: &url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: r.URL.RawQuery}}
	for _, h := range strings.Split(signed, ";") {
		if h != "host" {
			again.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	signer := sigv4.New(func(o *v4.SignerOptions) {
		o.AddPayloadHashHeader, o.DisableDoublePathEscape, o.DisableImplicitPayloadHashing = true, true, true
	})
	err = signer.SignRequest(&sigv4.SignRequestInput{Request: again, PayloadHash: hash, Service: "s3", Region: s.Region, Time: at,
		Credentials: credentials.Credentials{AccessKeyID: s.AccessKey, SecretAccessKey: s.SecretKey}})
	if err != nil || again.Header.Get("Authorization") != auth {
		return "SignatureDoesNotMatch", "the signature differs from the one calculated"
	}
	return "", ""
}

// payload returns the signed payload hash, checking a hashed body.
func (s *Server) payload(r *http.Request) ([]byte, string) {
	h := r.Header.Get("X-Amz-Content-Sha256")
	switch {
	case h == "":
		return nil, "InvalidRequest" // s3api: x-amz-content-sha256 is required
	case h == "UNSIGNED-PAYLOAD":
		return []byte(h), ""
	case strings.HasPrefix(h, "STREAMING-"):
		return nil, "NotImplemented" // as Swift 2.30's s3api answers aws-chunked uploads
	}
	want, err := hex.DecodeString(h)
	if err != nil {
		return nil, "InvalidArgument"
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, "IncompleteBody"
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if got := sha256.Sum256(body); !bytes.Equal(got[:], want) {
		return nil, "XAmzContentSHA256Mismatch"
	}
	return want, ""
}

// parseAuth splits "AWS4-HMAC-SHA256 Credential=..., SignedHeaders=...,
// Signature=..." into its credential and signed headers.
func parseAuth(auth string) (cred, signed string, ok bool) {
	rest, ok := strings.CutPrefix(auth, "AWS4-HMAC-SHA256 ")
	if !ok {
		return "", "", false
	}
	for _, kv := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "Credential":
			cred = v
		case "SignedHeaders":
			signed = v
		}
	}
	return cred, signed, cred != "" && signed != ""
}
