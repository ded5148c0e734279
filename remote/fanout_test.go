package remote

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestFanOutIndexes: every index is called once, at most limit at once;
// the error returned is the first failure in idx's order, whichever call
// failed first; a panic is its index's error.
func TestFanOutIndexes(t *testing.T) {
	var mu sync.Mutex
	called := map[int]int{}
	running, most := 0, 0
	idx := []int{0, 2, 3, 5, 7}
	err := FanOutIndexes(context.Background(), 2, idx, func(_ context.Context, i int) error {
		mu.Lock()
		called[i]++
		running++
		most = max(most, running)
		mu.Unlock()
		defer func() { mu.Lock(); running--; mu.Unlock() }()
		switch i {
		case 3:
			return fmt.Errorf("index %d failed", i)
		case 7:
			panic("boom")
		}
		return nil
	})
	if err == nil || err.Error() != "index 3 failed" {
		t.Fatalf("error = %v, want index 3's (the first failure in idx's order)", err)
	}
	for _, i := range idx {
		if called[i] != 1 {
			t.Errorf("index %d called %d times, want once", i, called[i])
		}
	}
	if len(called) != len(idx) {
		t.Errorf("called %v, want exactly %v", called, idx)
	}
	if most > 2 {
		t.Errorf("%d calls at once, limit 2", most)
	}

	err = FanOutIndexes(context.Background(), 0, []int{1, 4}, func(_ context.Context, i int) error {
		if i == 4 {
			panic("boom")
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "4: panic: boom") {
		t.Fatalf("a panic's error = %v, want it named by its index", err)
	}
	if err := FanOutIndexes(context.Background(), 0, nil, nil); err != nil {
		t.Fatalf("no indexes: %v", err)
	}
}

// TestFanOutIndexesCancelled: with ctx ended, no call starts and the
// error is ctx's.
func TestFanOutIndexesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := FanOutIndexes(ctx, 1, []int{0, 1}, func(context.Context, int) error {
		t.Error("called after ctx ended")
		return nil
	})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "0: not started") {
		t.Fatalf("error = %v, want index 0 not started with context.Canceled", err)
	}
}
