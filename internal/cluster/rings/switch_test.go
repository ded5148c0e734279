package rings

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestSwitchAllRingsSideBySide: three rings' switches run at once (none
// returns until all three started) and come back in the rings' order.
func TestSwitchAllRingsSideBySide(t *testing.T) {
	var mu sync.Mutex
	in := 0
	all := make(chan struct{})
	outs := switchAllRings(context.Background(), 3, func(_ context.Context, i int) ([]string, bool, error) {
		mu.Lock()
		if in++; in == 3 {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(20 * time.Second):
			return nil, false, errors.New("the switches did not run side by side")
		}
		if i == 1 {
			return nil, false, fmt.Errorf("ring %d failed", i)
		}
		return []string{fmt.Sprint("ring ", i)}, i == 2, nil
	})
	if outs[0].err != nil || outs[0].switched || outs[0].changes[0] != "ring 0" ||
		outs[1].err == nil || outs[2].err != nil || !outs[2].switched || outs[2].changes[0] != "ring 2" {
		t.Fatalf("outcomes %+v", outs)
	}
}
