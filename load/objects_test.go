package load

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

func TestDrawsFollowTheScenario(t *testing.T) {
	s := testScenario(t, "[1, 3, 0, 0]", "") // tiny 13 files, small 5 (small only reads)
	o := newObjects(s)
	rng := rand.New(rand.NewPCG(1, 2))
	classes := make([]int, len(o.classes))
	ops := map[string]int{}
	const n = 20000
	for range n {
		c := pick(o.sizeCum, rng.Float64())
		classes[c]++
		op := crudOps[pick(o.classes[c].crudCum[:], rng.Float64())]
		ops[o.classes[c].size.Name+" "+op]++
		if z := o.size(c, rng); z < o.classes[c].size.SizeMin || z > o.classes[c].size.SizeMax {
			t.Fatalf("size %d outside class %+v", z, o.classes[c].size)
		}
	}
	near := func(got int, want float64) bool { return float64(got) > want*0.93 && float64(got) < want*1.07 }
	if !near(classes[0], n*13.0/18) || !near(classes[1], n*5.0/18) {
		t.Errorf("classes drawn %v, want in proportion 13:5 to initial_files", classes)
	}
	if ops["small PUT"] != 0 || !near(ops["tiny PUT"], n*13.0/18/4) || !near(ops["tiny GET"], n*13.0/18*3/4) {
		t.Errorf("operations drawn %v: want tiny 1:3 PUT:GET, small reads only (its own crud_profile)", ops)
	}
}

func TestRunSecondsWinsOverOperationCount(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", `, "run_seconds": 7`)
	c := Config{Scenario: s, Client: &Client{}}
	if err := c.resolve(); err != nil || c.Duration != 7*time.Second || c.Operations != 0 || c.Users != 4 {
		t.Fatalf("resolved %+v, %v", c, err)
	}
}

func TestNamesArePrintfPadded(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", "")
	o := newObjects(s)
	for _, i := range []int64{1, 999999, 1000000, 12345678} {
		if got, want := o.name(0, i), fmt.Sprintf("tiny_%06d", i); got != want {
			t.Errorf("name %d = %q, want %q", i, got, want)
		}
		if got, want := s.ContainerName(int(i)), fmt.Sprintf("ssbench_%06d_default_policy", i); got != want {
			t.Errorf("container %d = %q, want %q", i, got, want)
		}
	}
}

func TestProcsGrowWithUsers(t *testing.T) {
	if p := Procs(64); p != 1 {
		t.Errorf("64 users: %d procs, want 1", p)
	}
	if p := Procs(1 << 20); p < 1 || p > max(1, runtime.NumCPU()/2) {
		t.Errorf("a million users: %d procs, want 1 to half the CPUs", p)
	}
}

// TestUpdateAfterDeleteIsCleanedUp: an update that raced the delete of its
// object may put it back; cleanup must still find it.
func TestUpdateAfterDeleteIsCleanedUp(t *testing.T) {
	var r createdRange
	r.init(14)
	for range 3 {
		r.finish(r.reserve()) // 14, 15, 16 exist
	}
	r.updated(15) // an update that ended while 15 was still live
	if i, ok := r.popOldest(); !ok || i != 14 {
		t.Fatalf("popOldest = %d, %v", i, ok)
	}
	r.updated(14) // an update of 14 that ended after 14 was taken for deletion
	lo, hi := r.left()
	got := r.revivedIndexes()
	if lo != 15 || hi != 17 || len(got) != 1 || got[0] != 14 {
		t.Fatalf("left [%d, %d), revived %v; want [15, 17) and [14]", lo, hi, got)
	}
}
