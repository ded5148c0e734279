package prefill

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"benchbed/load"
	"benchbed/plan/scenario"
)

// S3Store is a Store over S3: containers are buckets (load.S3Bucket's
// names), listings ListObjectsV2 pages, large objects multipart uploads.
// Its client's API is load.NewS3's; requests are retried as the load
// engine's are (503, transport errors).
type S3Store struct {
	Client *load.Client
	Policy string // X-Storage-Policy of new buckets, as s3api passes it on ("" = the server's default)
}

var _ partsStore = (*S3Store)(nil)

func (st *S3Store) partsInline() {}

// NewStore returns the store spec reaches, S3's when spec.S3 is set, else
// Swift's, with a connection pool that fits conns requests in flight.
func NewStore(spec load.AuthSpec, conns int, policy string) (LargeStore, *http.Client, error) {
	if spec.S3 == nil {
		st, err := NewHTTPStore(spec, conns, policy)
		if err != nil {
			return nil, nil, err
		}
		return st, st.HTTP, nil
	}
	c, err := spec.NewClient(max(conns, 16))
	if err != nil {
		return nil, nil, err
	}
	return &S3Store{Client: c, Policy: policy}, c.HTTP, nil
}

// outcomeErr turns a failed outcome into an error naming what failed.
func outcomeErr(o load.Outcome, what string) error {
	if o.OK() {
		return nil
	}
	if o.Err != nil {
		return fmt.Errorf("%s: %w", what, o.Err)
	}
	msg := fmt.Sprintf("%s: HTTP %d", what, o.Status)
	if o.Code != "" {
		msg += " " + o.Code + load.S3Hint(o.Code)
	} else {
		msg += load.S3NotS3
	}
	return fmt.Errorf("%s", msg)
}

// PutContainer implements Store: the bucket, ours already being fine.
func (st *S3Store) PutContainer(ctx context.Context, c string) error {
	var hdr http.Header
	if st.Policy != "" {
		hdr = http.Header{"X-Storage-Policy": {st.Policy}}
	}
	return outcomeErr(st.Client.PutBucket(ctx, c, hdr), "PUT bucket "+load.S3Bucket(c))
}

// PutObject implements Store.
func (st *S3Store) PutObject(ctx context.Context, c, name string, size int64) error {
	o := st.Client.Do(ctx, &load.Request{Method: http.MethodPut, Container: c, Object: name, Size: size}, time.Now())
	return outcomeErr(o, "PUT "+load.S3Bucket(c)+"/"+name)
}

// PutLarge implements LargeStore: a multipart upload.
func (st *S3Store) PutLarge(ctx context.Context, s *scenario.Scenario, c, name string, size int64) error {
	return outcomeErr(load.PutLargeObject(ctx, st.Client, s, c, name, size), "multipart upload "+load.S3Bucket(c)+"/"+name)
}

// send sends one request whose answer is read here.
func (st *S3Store) send(ctx context.Context, r *load.Request) (*http.Response, error) {
	req, err := st.Client.NewHTTPRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	return st.Client.HTTP.Do(req)
}

// HeadObject implements Store.
func (st *S3Store) HeadObject(ctx context.Context, c, name string) (int64, error) {
	what := "HEAD " + load.S3Bucket(c) + "/" + name
	resp, err := st.send(ctx, &load.Request{Method: http.MethodHead, Container: c, Object: name})
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	drainClose(resp)
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return 0, ErrNotFound
	case resp.StatusCode/100 != 2:
		return 0, fmt.Errorf("%s: HTTP %s", what, resp.Status)
	}
	return resp.ContentLength, nil
}

// List implements Store: one ListObjectsV2 page of at most limit keys
// (S3 gives 1,000 at most) after marker (start-after), decoded as it
// streams. A missing bucket lists nothing.
func (st *S3Store) List(ctx context.Context, c, marker string, limit int, fn func(string, int64)) (int, error) {
	q := "list-type=2&max-keys=" + strconv.Itoa(limit)
	if marker != "" {
		q += "&start-after=" + url.QueryEscape(marker)
	}
	what := "listing bucket " + load.S3Bucket(c)
	resp, err := st.send(ctx, &load.Request{Method: http.MethodGet, Container: c, Query: q})
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	defer drainClose(resp)
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		code := xmlCode(body)
		if resp.StatusCode == http.StatusNotFound && code == "NoSuchBucket" {
			return 0, nil
		}
		return 0, fmt.Errorf("%s: HTTP %s %s%s", what, resp.Status, code, load.S3Hint(code))
	}
	return decodeS3Listing(resp.Body, fn)
}

// xmlCode is an S3 error document's <Code> ("" when none).
func xmlCode(body []byte) string {
	var doc struct {
		Code string `xml:"Code"`
	}
	_ = xml.Unmarshal(body, &doc) // not XML: no code
	return doc.Code
}

// decodeS3Listing streams a ListBucketResult's <Contents> to fn.
func decodeS3Listing(r io.Reader, fn func(string, int64)) (int, error) {
	dec := xml.NewDecoder(r)
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("listing: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Contents" {
			continue
		}
		var e struct {
			Key  string `xml:"Key"`
			Size int64  `xml:"Size"`
		}
		if err := dec.DecodeElement(&e, &se); err != nil {
			return n, fmt.Errorf("listing entry %d: %w", n, err)
		}
		fn(e.Key, e.Size)
		n++
	}
}
