package sweep

import (
	"errors"
	"testing"

	"benchbed/plan"
)

// TestLabStateFollowsTheCellSteps: the hosts hold a variant only once its
// restart succeeded after the ring and conf steps; a failed restart, or
// files changing again, leaves them holding none; a resumed sweep never
// calls them settled.
func TestLabStateFollowsTheCellSteps(t *testing.T) {
	a, b := &plan.Variant{Name: "a"}, &plan.Variant{Name: "b"}
	l := labState{settled: true}
	l.begin()
	l.changing()
	if !l.touched || l.settled || l.holds(a) {
		t.Fatalf("after a conf change: %+v", l)
	}
	l.restarting()
	l.restarted(a, nil, false)
	if !l.settled || !l.holds(a) || l.holds(b) || l.holds(nil) {
		t.Fatalf("after a's restart: %+v", l)
	}
	l.changing()
	l.restarting()
	l.restarted(b, errors.New("object-server did not start"), false)
	if l.settled || l.holds(a) || l.holds(b) {
		t.Fatalf("after b's failed restart: %+v", l)
	}
	l.restarted(b, nil, true)
	if l.settled || !l.holds(b) {
		t.Fatalf("a resumed sweep's restart: %+v", l)
	}
}
