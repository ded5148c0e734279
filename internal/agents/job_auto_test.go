package agents

import (
	"strings"
	"testing"
	"time"

	"benchbed/plan"
)

// TestPreciseRunStops: a duration = "auto" run's job lasts at most its
// max, and its Stop closes once the per-second series is precise enough,
// saying so; a steady series ends an auto warm-up.
func TestPreciseRunStops(t *testing.T) {
	w := &plan.Workload{AutoDuration: &plan.AutoDuration{Precision: 0.02, Max: time.Hour}}
	ar := Job{Duration: time.Minute, Ops: 10}
	why := PreciseRun(w, &ar)
	if ar.Duration != time.Hour || ar.Ops != 0 || ar.Stop == nil || ar.Second == nil {
		t.Fatalf("job %+v: want the max, no count, a stop and a series", ar)
	}
	for i := 0; i < 20 && !closed(ar.Stop); i++ {
		ar.Second(100+float64(i%2), 0.01)
	}
	if !closed(ar.Stop) || !strings.HasPrefix(why(), "precision ") || !strings.HasSuffix(why(), " reached") {
		t.Fatalf("stopped %v, why %q", closed(ar.Stop), why())
	}
	fixed := Job{Duration: time.Minute}
	if PreciseRun(&plan.Workload{}, &fixed)() != "" || fixed.Stop != nil {
		t.Errorf("a fixed run was changed: %+v", fixed)
	}
	warm := Job{Duration: 2 * time.Minute}
	wwhy := SteadyWarmup(&warm)
	if got := wwhy(); !strings.HasPrefix(got, "not steady after 2m: ") {
		t.Errorf("an unsampled warm-up says %q", got)
	}
	for i := 0; i < 30 && !closed(warm.Stop); i++ {
		warm.Second(100, 0.01)
	}
	if !closed(warm.Stop) || !strings.HasPrefix(wwhy(), "steady after ") {
		t.Errorf("a steady warm-up: stopped %v, %q", closed(warm.Stop), wwhy())
	}
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
