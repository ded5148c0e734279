package load

import (
	"context"
	"io"
	"time"

	"benchbed/plan/scenario"
)

// Content returns size bytes of the generated content every object holds,
// from offset off: what verified reads compare with. It allocates nothing
// but itself.
func Content(off, size int64) io.ReadCloser { return &body{off: off, n: off + size} }

// PutLargeObject uploads container/obj of size bytes as s's large objects
// are (segments of s.SegmentSize into SegmentContainer(container), then
// the manifest), on c, each request measured from its own start.
func PutLargeObject(ctx context.Context, c *Client, s *scenario.Scenario, container, obj string, size int64) Outcome {
	return putLarge(func(r *Request) Outcome { return c.Do(ctx, r, time.Now()) }, s, container, obj, size, nil)
}
