package load

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"benchbed/plan/scenario"
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
	s, err := scenario.Parse([]byte(readmeScenario))
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
// deserved), and the initial object it takes is no longer drawn. A class
// keeps its last object: no delete takes it.
func TestDeleteWaitsForReaders(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"name": "t", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}],
	  "initial_files": {"a": 2}, "operation_count": 1, "crud_profile": [0, 1, 0, 1], "user_count": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	o := newObjects(s)
	rng := rand.New(rand.NewPCG(1, 2))
	held := map[int64]bool{}
	for len(held) < 2 { // reads hold both objects
		if idx := o.existing(0, rng); held[idx] {
			o.release(0, idx)
		} else {
			held[idx] = true
		}
	}
	done := make(chan int64)
	go func() {
		idx, _ := o.toDelete(0, rand.New(rand.NewPCG(3, 4)))
		done <- idx
	}()
	for len(o.holes(0)) == 0 { // the delete has chosen its object
		runtime.Gosched()
	}
	victim := o.holes(0)[0]
	select {
	case idx := <-done:
		t.Fatalf("the delete of %d went ahead while a read held it", idx)
	default:
	}
	o.release(0, victim)
	if idx := <-done; idx != victim {
		t.Fatalf("deleted %d, want %d", idx, victim)
	}
	for range 100 {
		if r := o.existing(0, rng); r == victim {
			t.Fatalf("drew the deleted object %d", victim)
		} else {
			o.release(0, r)
		}
	}
	if idx, ok := o.toDelete(0, rng); ok {
		t.Fatalf("deleted %d, the class's last object", idx)
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
	if idx, _ := o.toDelete(0, rng); idx != a || len(o.holes(0)) != 0 {
		t.Fatalf("deleted %d, want the created %d; holes %v", idx, a, o.holes(0))
	}
	idx, _ := o.toDelete(0, rng)
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

// TestAgentsShareTheObjectSpace: two agents running the README scenario at
// once against one account (as a sweep's agents do) never touch each
// other's objects: their created names differ, each reads and deletes only
// its own share of the initial files, so no operation fails, and afterwards
// the account holds exactly the 110 initial files.
func TestAgentsShareTheObjectSpace(t *testing.T) {
	s, err := scenario.Parse([]byte(readmeScenario))
	if err != nil {
		t.Fatal(err)
	}
	a, b := newObjects(s), newObjects(s)
	a.setPart(0, 2)
	b.setPart(1, 2)
	rng := rand.New(rand.NewPCG(7, 8))
	seen := map[string]int{}
	for range 2000 {
		for i, o := range []*objects{a, b} {
			idx := o.existing(0, rng)
			o.release(0, idx)
			if prev, ok := seen[o.name(0, idx)]; ok && prev != i {
				t.Fatalf("both agents read %s", o.name(0, idx))
			}
			seen[o.name(0, idx)] = i
		}
	}
	if len(seen) != 100 {
		t.Errorf("the two agents read %d of the 100 tiny initial files between them", len(seen))
	}
	ca, cb := a.classes[0].created.reserve(), b.classes[0].created.reserve()
	if a.name(0, ca) == b.name(0, cb) || a.name(0, ca) != "tiny_000101" || b.name(0, cb) != "tiny_000102" {
		t.Errorf("created names %s and %s", a.name(0, ca), b.name(0, cb))
	}

	f := newFakeSwift(t)
	for _, co := range ssbenchInitial(s) {
		f.put(co[0], co[1], 100000)
	}
	want := f.objectNames()
	results := make(chan *Result, 2)
	client := v1Client(f, "testing") // one token: the fake keeps only the last one issued
	for part := range 2 {
		go func() {
			res, err := Run(context.Background(), Config{Scenario: s, Client: client, Part: part, Parts: 2})
			if err != nil {
				t.Error(err)
			}
			results <- res
		}()
	}
	for range 2 {
		res := <-results
		if res == nil || res.Cleanup != nil {
			t.Fatalf("result %+v", res)
		}
		for op, h := range res.Recording {
			if h.ErrorCount() != 0 {
				t.Errorf("%s: %v", op, h.Errors)
			}
		}
	}
	if got := f.objectNames(); !slices.Equal(got, want) {
		t.Fatalf("afterwards %d objects, want the 110 initial files", len(got))
	}
}
