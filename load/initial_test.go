package load

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// readmeScenario is ssbench's README "Small test scenario", as published.
const readmeScenario = `{"name": "Small test scenario",
  "sizes": [{"name": "tiny", "size_min": 4096, "size_max": 65536},
            {"name": "small", "size_min": 100000, "size_max": 200000}],
  "initial_files": {"tiny": 100, "small": 10},
  "operation_count": 500, "crud_profile": [3, 4, 2, 2], "user_count": 7}`

// objectNames lists the fake's objects as "container/name", sorted.
func (f *fakeSwift) objectNames() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for k := range f.objects {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestReadmeScenarioKeepsInitialFilesOnly runs ssbench's README scenario
// over its initial files: every one of the 500 operations succeeds (reads
// never meet an object a delete took), and afterwards the account holds
// exactly the 110 initial files, with their sizes in range, and nothing
// the run created.
func TestReadmeScenarioKeepsInitialFilesOnly(t *testing.T) {
	s, err := ParseScenario([]byte(readmeScenario))
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		f := newFakeSwift(t)
		for _, co := range ssbenchInitial(s) {
			f.put(co[0], co[1], map[bool]int64{true: 4096, false: 100000}[strings.HasPrefix(co[1], "tiny_")])
		}
		want := f.objectNames()
		if len(want) != 110 {
			t.Fatalf("prefilled %d objects, want 110", len(want))
		}
		res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing")})
		if err != nil || res.Cleanup != nil {
			t.Fatalf("run: %v, cleanup: %v", err, res.Cleanup)
		}
		var ops, errs int64
		for _, h := range res.Recording {
			ops += h.LastByte.Count() + h.ErrorCount()
			errs += h.ErrorCount()
		}
		if ops != 500 || errs != 0 || res.Recording[OpDelete] == nil {
			t.Fatalf("round %d: %d operations, %d errors (want 500 and 0, with deletes): %v", round, ops, errs, res.Recording)
		}
		if got := f.objectNames(); !slices.Equal(got, want) {
			t.Fatalf("round %d: after the run the account holds %d objects, want the 110 initial ones; %d were put back\ngot  %v",
				round, len(got), res.Restored, got)
		}
		for k, size := range f.objects {
			tiny := strings.Contains(k, "/tiny_")
			if tiny && (size < 4096 || size > 65536) || !tiny && (size < 100000 || size > 200000) {
				t.Errorf("%s has %d bytes, outside its class", k, size)
			}
		}
	}
}

// TestDeleteWaitsForReaders: a delete of an object a read holds waits for
// the read to end (else the GET could meet a 404 the cluster never
// deserved), and the initial object it takes is no longer drawn.
func TestDeleteWaitsForReaders(t *testing.T) {
	s, err := ParseScenario([]byte(`{"name": "t", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}],
	  "initial_files": {"a": 1}, "operation_count": 1, "crud_profile": [0, 1, 0, 1], "user_count": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	o := newObjects(s)
	rng := rand.New(rand.NewPCG(1, 2))
	held := o.existing(0, rng)
	done := make(chan int64)
	go func() { done <- o.toDelete(0, rand.New(rand.NewPCG(3, 4))) }()
	for len(o.holes(0)) == 0 { // the delete has chosen its object
		runtime.Gosched()
	}
	select {
	case idx := <-done:
		t.Fatalf("the delete of %d went ahead while a read held %d", idx, held)
	default:
	}
	o.release(0, held)
	if idx := <-done; idx != held || !slices.Equal(o.holes(0), []int64{held}) {
		t.Fatalf("deleted %d (held %d), holes %v", idx, held, o.holes(0))
	}
}

// TestDeletesPreferCreatedObjects: a delete takes the oldest object the
// run created; only when there is none does it take an initial one.
func TestDeletesPreferCreatedObjects(t *testing.T) {
	s := testScenario(t, "[1, 0, 0, 1]", "")
	o := newObjects(s)
	rng := rand.New(rand.NewPCG(5, 6))
	a := o.classes[0].created.reserve()
	o.classes[0].created.finish(a)
	if idx := o.toDelete(0, rng); idx != a || len(o.holes(0)) != 0 {
		t.Fatalf("deleted %d, want the created %d; holes %v", idx, a, o.holes(0))
	}
	idx := o.toDelete(0, rng)
	if idx < 1 || idx > o.classes[0].initial || !slices.Equal(o.holes(0), []int64{idx}) {
		t.Fatalf("with nothing created, deleted %d; holes %v", idx, o.holes(0))
	}
	for range 200 {
		if r := o.existing(0, rng); r == idx {
			t.Fatalf("drew the deleted initial object %d", idx)
		} else {
			o.release(0, r)
		}
	}
}
