package results

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"benchbed/plan/scenario"
)

// FillSpec is a fill experiment: PUTs into the scenario's containers from
// empty until each holds Objects objects, the latency of every PUT recorded
// in one of Buckets equal buckets of the container's fill when it started.
type FillSpec struct {
	Objects int64 `json:"container_objects"` // target objects a container
	Buckets int   `json:"buckets"`           // fill buckets (10: 10 % each)
}

// Validate checks the spec's ranges.
func (f FillSpec) Validate() error {
	var errs []error
	if f.Objects < 1 || f.Objects > scenario.MaxFillObjects {
		errs = append(errs, fmt.Errorf("fill: container_objects must be 1 to %d, got %d", int64(scenario.MaxFillObjects), f.Objects))
	}
	if f.Buckets < 1 || f.Buckets > scenario.MaxFillBuckets {
		errs = append(errs, fmt.Errorf("fill: buckets must be 1 to %d, got %d", scenario.MaxFillBuckets, f.Buckets))
	}
	if f.Buckets > 0 && f.Objects > 0 && int64(f.Buckets) > f.Objects {
		errs = append(errs, errors.New("fill: more buckets than container_objects: a bucket would hold no object"))
	}
	return errors.Join(errs...)
}

// Bucket returns the bucket of a container holding fill objects: fill's
// share of the target times the buckets, the last bucket taking anything
// at or past the target.
func (f FillSpec) Bucket(fill int64) int {
	if fill <= 0 {
		return 0
	}
	if fill >= f.Objects {
		return f.Buckets - 1
	}
	return int(fill * int64(f.Buckets) / f.Objects)
}

// Bounds returns bucket i's objects: from (included) to (excluded), the
// smallest fill whose Bucket is i and the next bucket's.
func (f FillSpec) Bounds(i int) (from, to int64) {
	return f.edge(i), f.edge(i + 1)
}

// edge is the smallest fill in bucket i: ceil(i * Objects / Buckets).
func (f FillSpec) edge(i int) int64 {
	n := int64(i) * f.Objects
	b := int64(f.Buckets)
	return (n + b - 1) / b
}

// histBytes is the memory of one histogram's counts.
var histBytes = sync.OnceValue(func() int64 { return int64(NewHist().h.ByteSize()) })

// MemoryBytes is the most memory a recorder's fill buckets take: a
// histogram pair for every bucket's total, and for the buckets of the last
// two intervals (a few, as a container's fill moves on slowly, but every
// bucket at worst).
func (f FillSpec) MemoryBytes() int64 {
	return int64(3*f.Buckets) * 2 * histBytes()
}

// FillRecording holds the histograms of the operations of each fill
// bucket, by bucket index; a bucket nothing fell into is absent.
type FillRecording map[int]*OpHists

// Record returns bucket i's histograms, created when absent.
func (r FillRecording) Record(i int) *OpHists {
	h := r[i]
	if h == nil {
		h = NewOpHists()
		r[i] = h
	}
	return h
}

// Merge adds every bucket of o into r.
func (r FillRecording) Merge(o FillRecording) {
	for i, h := range o {
		r.Record(i).Merge(h)
	}
}

// FillBucket is one fill bucket's line of a cell: the PUTs that started
// while the container held From to To (excluded) objects.
type FillBucket struct {
	From      int64            `json:"from_objects"`
	To        int64            `json:"to_objects"`
	Count     int64            `json:"count"`
	Errors    int64            `json:"errors"`
	FirstByte Stats            `json:"first_byte"`
	LastByte  Stats            `json:"last_byte"`
	ErrorsBy  map[string]int64 `json:"errors_by,omitempty"`
}

// SummariseFill returns every bucket of spec, in order, with the
// statistics of r (a bucket with no operation has count 0). Buckets of r
// outside the spec are refused.
func SummariseFill(spec FillSpec, r FillRecording) ([]FillBucket, error) {
	for _, i := range slices.Sorted(maps.Keys(r)) {
		if i < 0 || i >= spec.Buckets {
			return nil, fmt.Errorf("fill: bucket %d outside the %d buckets", i, spec.Buckets)
		}
	}
	out := make([]FillBucket, spec.Buckets)
	for i := range out {
		b := &out[i]
		b.From, b.To = spec.Bounds(i)
		h := r[i]
		if h == nil {
			continue
		}
		b.Count, b.Errors = h.LastByte.Count(), h.ErrorCount()
		b.FirstByte, b.LastByte = h.FirstByte.Stats(), h.LastByte.Stats()
		if len(h.Errors) > 0 {
			b.ErrorsBy = maps.Clone(h.Errors)
		}
	}
	return out, nil
}
