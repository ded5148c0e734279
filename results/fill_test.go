package results

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// TestFillBucketsPartitionTheTarget: every fill from 0 to the target falls
// into the bucket whose bounds hold it, the buckets are contiguous from 0
// to the target, and fills past it go to the last bucket.
func TestFillBucketsPartitionTheTarget(t *testing.T) {
	for _, spec := range []FillSpec{{Objects: 100, Buckets: 10}, {Objects: 97, Buckets: 10}, {Objects: 5, Buckets: 5},
		{Objects: 1000, Buckets: 7}, {Objects: 1, Buckets: 1}} {
		var prev int64
		for i := range spec.Buckets {
			from, to := spec.Bounds(i)
			if from != prev || to <= from {
				t.Fatalf("%+v: bucket %d is [%d, %d), the previous ended at %d", spec, i, from, to, prev)
			}
			prev = to
		}
		if prev != spec.Objects {
			t.Fatalf("%+v: the buckets end at %d", spec, prev)
		}
		for fill := range spec.Objects {
			b := spec.Bucket(fill)
			if from, to := spec.Bounds(b); fill < from || fill >= to {
				t.Fatalf("%+v: fill %d in bucket %d [%d, %d)", spec, fill, b, from, to)
			}
		}
		if b := spec.Bucket(spec.Objects * 3); b != spec.Buckets-1 {
			t.Errorf("%+v: a fill past the target is in bucket %d", spec, b)
		}
	}
}

func TestFillSpecValidate(t *testing.T) {
	if err := (FillSpec{Objects: 20000, Buckets: 10}).Validate(); err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[FillSpec]string{
		{Objects: 0, Buckets: 10}:     "container_objects must be",
		{Objects: 10, Buckets: 0}:     "buckets must be",
		{Objects: 1000, Buckets: 101}: "buckets must be",
		{Objects: 5, Buckets: 10}:     "more buckets than",
	} {
		if err := spec.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", spec, err, want)
		}
	}
}

// TestSummariseFillAfterJSON: buckets streamed as JSON and merged summarise
// into every bucket in order, an empty one with count 0, and a bucket
// outside the spec is refused.
func TestSummariseFillAfterJSON(t *testing.T) {
	spec := FillSpec{Objects: 300, Buckets: 3}
	a, b := FillRecording{}, FillRecording{}
	for i := range 10 {
		a.Record(0).LastByte.Record(time.Duration(i+1) * time.Millisecond)
		a.Record(0).FirstByte.Record(time.Duration(i+1) * time.Millisecond / 2)
		b.Record(2).LastByte.Record(50 * time.Millisecond)
		b.Record(2).FirstByte.Record(40 * time.Millisecond)
	}
	b.Record(2).Errors["http_503"] = 2
	raw, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back FillRecording
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	a.Merge(back)
	got, err := SummariseFill(spec, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Count != 10 || got[1].Count != 0 || got[2].Count != 10 || got[2].Errors != 2 {
		t.Fatalf("buckets %+v", got)
	}
	near := func(x, want float64) bool { return math.Abs(x-want) <= want/1000 } // 3 significant digits
	if got[1].From != 100 || got[1].To != 200 || !near(got[2].LastByte.P50, 0.05) || !near(got[0].LastByte.P99, 0.01) {
		t.Errorf("buckets %+v", got)
	}
	a.Record(3)
	if _, err := SummariseFill(spec, a); err == nil {
		t.Error("a bucket outside the spec was summarised")
	}
}
