package load

import (
	"context"
	"io"
	"net/http"
	"time"

	"benchbed/plan/scenario"
)

// Content returns size bytes of the generated content every object holds,
// from offset off: what verified reads compare with. It allocates nothing
// but itself.
func Content(off, size int64) io.ReadCloser { return &body{off: off, n: off + size} }

// PutLargeObject uploads container/obj of size bytes as s's large objects
// are on c's API (Swift: segments of s.SegmentSize into
// SegmentContainer(container), then the manifest; S3: a multipart
// upload), each request measured from its own start.
func PutLargeObject(ctx context.Context, c *Client, s *scenario.Scenario, container, obj string, size int64) Outcome {
	return c.api().putLarge(func(r *Request) Outcome { return c.Do(ctx, r, time.Now()) }, s, container, obj, size, nil)
}

// NewHTTPRequest returns r as a net/http request of c's API, addressed
// and authenticated (an S3 request signed), for requests whose answer is
// read whole (a listing, a HEAD's headers).
func (c *Client) NewHTTPRequest(ctx context.Context, r *Request) (*http.Request, error) {
	api := c.api()
	base, token, err := api.target(ctx)
	if err != nil {
		return nil, err
	}
	return api.newRequest(ctx, base, token, r)
}

// PutBucket creates container (S3's bucket, Swift's container) with
// header, one already there being fine.
func (c *Client) PutBucket(ctx context.Context, container string, header http.Header) Outcome {
	o := c.Do(ctx, &Request{Method: http.MethodPut, Container: container, Header: header}, time.Now())
	if bucketThere(o) {
		o.Status, o.Code = http.StatusOK, ""
	}
	return o
}
