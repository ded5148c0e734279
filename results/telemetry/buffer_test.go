package telemetry

import (
	"testing"
	"time"
)

func TestBufferDropsOldest(t *testing.T) {
	b := NewBuffer(3)
	base := time.Unix(0, 0)
	for i := range 5 {
		b.Put(Sample{T: base.Add(time.Duration(i) * time.Second)})
	}
	select {
	case <-b.Ready():
	default:
		t.Error("not ready after Put")
	}
	got := b.Take()
	if len(got) != 3 || got[0].T != base.Add(2*time.Second) || got[0].Dropped != 2 || got[1].Dropped != 0 {
		t.Errorf("took %d samples, first %v dropped %d", len(got), got[0].T, got[0].Dropped)
	}
	b.Put(Sample{})
	if got := b.Take(); len(got) != 1 || got[0].Dropped != 0 {
		t.Errorf("after a Take: %+v", got)
	}
}
