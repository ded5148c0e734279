package cluster

import (
	"testing"
	"time"
)

// TestBackoffGrowsToItsCap: 50 ms, then half again each time, never over
// 500 ms.
func TestBackoffGrowsToItsCap(t *testing.T) {
	var b backoff
	got := []time.Duration{b.wait(), b.wait(), b.wait()}
	if got[0] != 50*time.Millisecond || got[1] != 75*time.Millisecond || got[2] != 112500*time.Microsecond {
		t.Fatalf("first waits %v, want 50ms 75ms 112.5ms", got)
	}
	var last time.Duration
	for i := 0; i < 20; i++ {
		last = b.wait()
		if last > pollMax {
			t.Fatalf("wait %v over the cap %v", last, pollMax)
		}
	}
	if last != pollMax {
		t.Fatalf("wait after 23 polls %v, want the cap %v", last, pollMax)
	}
}
