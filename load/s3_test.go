package load

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"benchbed/internal/labtest/s3fake"
	"benchbed/plan/scenario"
	"github.com/johannesboyne/gofakes3"
)

// s3Client returns a client speaking S3 to f with secret.
func s3Client(t *testing.T, f *s3fake.Server, pathStyle, signPayload bool, secret string) *Client {
	t.Helper()
	api, err := NewS3(S3Config{Endpoint: f.URL, AccessKey: f.AccessKey, SecretKey: secret, PathStyle: pathStyle,
		SignPayload: signPayload})
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(nil, 8)
	c.API = api
	return c
}

// s3Prefilled puts s's initial objects (generated content, 50 bytes) into
// f's buckets as prefill would, through c.
func s3Prefilled(t *testing.T, c *Client, s *scenario.Scenario) {
	t.Helper()
	ctx := context.Background()
	if err := ensureContainers(ctx, c, s); err != nil {
		t.Fatal(err)
	}
	for _, co := range ssbenchInitial(s) {
		if o := c.Do(ctx, &Request{Method: http.MethodPut, Container: co[0], Object: co[1], Size: 50}, time.Now()); !o.OK() {
			t.Fatalf("PUT %s/%s: %+v", co[0], co[1], o)
		}
	}
}

func TestS3ScenarioVerifiedBothStyles(t *testing.T) {
	for _, tc := range []struct {
		name            string
		pathStyle, hash bool
	}{{"path-unsigned", true, false}, {"vhost-unsigned", false, false}, {"vhost-hashed", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := s3fake.Start(t, !tc.pathStyle)
			c := s3Client(t, f, tc.pathStyle, tc.hash, f.SecretKey)
			s := testScenario(t, "[3, 4, 1, 1]", "")
			s3Prefilled(t, c, s)
			res, err := Run(context.Background(), Config{Scenario: s, Client: c, Verify: true})
			if err != nil || res.Cleanup != nil {
				t.Fatalf("run: %v, cleanup: %v", err, res.Cleanup)
			}
			var ops int64
			for op, h := range res.Recording {
				if h.ErrorCount() != 0 {
					t.Errorf("%s errors: %v", op, h.Errors)
				}
				ops += h.LastByte.Count()
			}
			if ops != 400 || res.Recording[OpRead].LastByte.Count() == 0 {
				t.Fatalf("%d successful operations, want 400 with reads: %v", ops, res.Recording)
			}
			list, err := f.Backend.ListBucket(S3Bucket(s.ContainerName(0)), nil, gofakes3Page())
			if err != nil || len(list.Contents) == 0 {
				t.Fatalf("bucket %s listed %v, %v", S3Bucket(s.ContainerName(0)), list, err)
			}
		})
	}
}

// TestS3MultipartLargeClassVerified: the large class's creates go as
// multipart uploads, every one completed, its reads verified. Its 40
// operations hold a create but about once in a million draws (12 held
// none about once in 90, and the run's creates were then untested).
func TestS3MultipartLargeClassVerified(t *testing.T) {
	f := s3fake.Start(t, false)
	c := s3Client(t, f, true, false, f.SecretKey)
	s, err := scenario.Parse([]byte(`{"name": "big", "crud_profile": [1, 2, 0, 1], "operation_count": 40,
	  "sizes": [{"name": "big", "size_min": 6291456, "size_max": 11534336}], "segment_size": 1048576,
	  "initial_files": {"big": 2}, "container_count": 1, "user_count": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := ensureContainers(context.Background(), c, s); err != nil {
		t.Fatal(err)
	}
	o := newObjects(s)
	for idx := int64(1); idx <= 2; idx++ {
		if out := o.send(c.api(), clientDoer(context.Background(), c), 0, &Request{Method: http.MethodPut,
			Container: o.container(0, idx), Object: o.name(0, idx), Size: 6291456 + idx}); !out.OK() {
			t.Fatalf("initial multipart PUT: %+v", out)
		}
	}
	res, err := Run(context.Background(), Config{Scenario: s, Client: c, Verify: true})
	if err != nil || res.Cleanup != nil {
		t.Fatalf("run: %v, cleanup: %v", err, res.Cleanup)
	}
	for op, h := range res.Recording {
		if h.ErrorCount() != 0 {
			t.Errorf("%s errors: %v", op, h.Errors)
		}
	}
	if res.Recording[OpRead].LastByte.Count() == 0 || f.Count("POST uploads") < 3 || f.Count("PUT part") < 6 ||
		f.Count("POST uploadId") != f.Count("POST uploads") {
		t.Fatalf("reads %d; multipart: %d initiated, %d parts, %d completed", res.Recording[OpRead].LastByte.Count(),
			f.Count("POST uploads"), f.Count("PUT part"), f.Count("POST uploadId"))
	}
	// An initial object the run deleted is put back with a size drawn in its class.
	obj, err := f.Backend.HeadObject(S3Bucket(o.container(0, 1)), o.name(0, 1))
	if err != nil || obj.Size < 6291456 || obj.Size > 11534336 {
		t.Fatalf("the first initial object: %+v, %v", obj, err)
	}
}

func TestS3WrongSecretNamesSignatureDoesNotMatch(t *testing.T) {
	f := s3fake.Start(t, false)
	c := s3Client(t, f, true, false, "not-the-secret")
	s := testScenario(t, "[1, 0, 0, 0]", "")
	_, err := Run(context.Background(), Config{Scenario: s, Client: c})
	if err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch: the secret key is not the access key's") {
		t.Fatalf("run with a wrong secret: %v", err)
	}
	if strings.Contains(err.Error(), "not-the-secret") {
		t.Fatalf("the error shows the secret: %v", err)
	}
	sess := c.NewSession(context.Background())
	defer sess.Close()
	if o := sess.Do(&Request{Method: http.MethodGet, Container: "c", Object: "o"}, time.Now()); o.ErrorKey() != "s3_SignatureDoesNotMatch" {
		t.Fatalf("a session's GET with a wrong secret: %+v (%s)", o, o.ErrorKey())
	}
}

func TestS3SlowDownRetriedThenCounted(t *testing.T) {
	f := s3fake.Start(t, false)
	c := s3Client(t, f, true, false, f.SecretKey)
	f.Fail = func(r *http.Request) (int, string) {
		if r.Method == http.MethodGet {
			return http.StatusServiceUnavailable, "SlowDown"
		}
		return 0, ""
	}
	sess := c.NewSession(context.Background())
	defer sess.Close()
	o := sess.Do(&Request{Method: http.MethodGet, Container: "c", Object: "o"}, time.Now())
	if o.ErrorKey() != "s3_SlowDown" || o.Retries != c.MaxRetries || f.Count("GET") != c.MaxRetries+1 {
		t.Fatalf("GET answered SlowDown: %+v, key %s, %d GETs", o, o.ErrorKey(), f.Count("GET"))
	}
}

func TestS3RangedGetHeadAndBucketDelete(t *testing.T) {
	f := s3fake.Start(t, true)
	c := s3Client(t, f, false, false, f.SecretKey)
	ctx := context.Background()
	if o := c.Do(ctx, &Request{Method: http.MethodPut, Container: "b_one", Header: nil}, time.Now()); !o.OK() {
		t.Fatalf("bucket PUT: %+v", o)
	}
	if o := c.Do(ctx, &Request{Method: http.MethodPut, Container: "b_one", Object: "k", Size: 100000}, time.Now()); !o.OK() {
		t.Fatalf("PUT: %+v", o)
	}
	sess := c.NewSession(ctx)
	defer sess.Close()
	var got bytes.Buffer
	o := sess.Do(&Request{Method: http.MethodGet, Container: "b_one", Object: "k", Sink: &got,
		Header: http.Header{"Range": {"bytes=70000-70009"}}}, time.Now())
	if o.Status != http.StatusPartialContent || !bytes.Equal(got.Bytes(), pattern[70000-blockSize:70010-blockSize]) {
		t.Fatalf("ranged GET: %+v, body %x", o, got.Bytes())
	}
	if o := sess.Do(&Request{Method: http.MethodHead, Container: "b_one", Object: "k"}, time.Now()); !o.OK() {
		t.Fatalf("HEAD: %+v", o)
	}
	if o := sess.Do(&Request{Method: http.MethodHead, Container: "b_one", Object: "gone"}, time.Now()); o.Status != http.StatusNotFound {
		t.Fatalf("HEAD of a missing key: %+v", o)
	}
	if o := sess.Do(&Request{Method: http.MethodDelete, Container: "b_one"}, time.Now()); o.ErrorKey() != "s3_BucketNotEmpty" {
		t.Fatalf("DELETE of a bucket with a key: %+v (%s)", o, o.ErrorKey())
	}
	for _, r := range []Request{{Method: http.MethodDelete, Container: "b_one", Object: "k"}, {Method: http.MethodDelete, Container: "b_one"}} {
		if o := sess.Do(&r, time.Now()); !o.OK() {
			t.Fatalf("%s %s/%s: %+v", r.Method, r.Container, r.Object, o)
		}
	}
	if o := sess.Do(&Request{Method: http.MethodGet, Container: "b_one", Object: "k"}, time.Now()); o.ErrorKey() != "s3_NoSuchBucket" {
		t.Fatalf("GET in a deleted bucket: %+v (%s)", o, o.ErrorKey())
	}
}

func TestS3ConfigNeverShowsSecret(t *testing.T) {
	cfg := S3Config{Endpoint: "http://127.0.0.1:1", AccessKey: "a:u", SecretKey: "s3cr3t-value"}
	if strings.Contains(cfg.String(), "s3cr3t") || strings.Contains(fmtV(cfg), "s3cr3t") {
		t.Fatalf("the config shows its secret: %s", cfg)
	}
	if _, err := NewS3(S3Config{Endpoint: "ftp://x", AccessKey: "a", SecretKey: "s3cr3t-value"}); err == nil ||
		strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("a bad endpoint: %v", err)
	}
}

func fmtV(v any) string { return fmt.Sprintf("%v %+v %s", v, v, v) }

func gofakes3Page() gofakes3.ListBucketPage { return gofakes3.ListBucketPage{} }
