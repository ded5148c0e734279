package prefill

import (
	"context"
	"errors"

	"benchbed/plan/scenario"
)

// Store is what prefill needs of a Swift account.
type Store interface {
	// PutContainer creates the container (an existing one is fine).
	PutContainer(ctx context.Context, container string) error
	// PutObject uploads size bytes as container/name.
	PutObject(ctx context.Context, container, name string, size int64) error
	// HeadObject returns the object's size, or ErrNotFound.
	HeadObject(ctx context.Context, container, name string) (int64, error)
	// List calls fn for each object of one listing page after marker (at most
	// limit, in name order) and returns how many it saw; 0 ends the listing.
	List(ctx context.Context, container, marker string, limit int, fn func(name string, bytes int64)) (int, error)
}

// LargeStore is a Store that uploads large objects (segments, then the
// manifest), for scenarios with a segment_size.
type LargeStore interface {
	Store
	PutLarge(ctx context.Context, s *scenario.Scenario, container, name string, size int64) error
}

// partsStore is a LargeStore whose large objects need no segment
// containers: S3's multipart parts are the server's own.
type partsStore interface {
	LargeStore
	partsInline()
}

// ErrNotFound is returned by Store.HeadObject for a missing object.
var ErrNotFound = errors.New("not found")

// PageSize is the listing page: Swift's maximum.
const PageSize = 10000
