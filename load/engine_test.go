package load

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"benchbed/plan/scenario"
	"benchbed/results"
)

// ssbenchInitial is ssbench's initial_jobs loop written plainly: the
// (container, name) of every initial object, in order.
func ssbenchInitial(s *scenario.Scenario) [][2]string {
	left, next := map[string]int{}, map[string]int{}
	for k, v := range s.InitialFiles {
		left[k], next[k] = v, 1
	}
	var out [][2]string
	for ci, more := 0, true; more; {
		more = false
		for _, z := range s.Sizes {
			if left[z.Name] > 0 {
				out = append(out, [2]string{s.ContainerName(ci % s.ContainerCount), fmt.Sprintf("%s_%06d", z.Name, next[z.Name])})
				ci, more = ci+1, true
				left[z.Name]--
				next[z.Name]++
			}
		}
	}
	return out
}

func testScenario(t *testing.T, crud string, extra string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte(`{"name": "t", "crud_profile": ` + crud + `, "operation_count": 400,
	  "sizes": [{"name": "tiny", "size_min": 10, "size_max": 100},
	            {"name": "none", "size_min": 1, "size_max": 1},
	            {"name": "small", "size_min": 1000, "size_max": 2000, "crud_profile": [0, 1, 0, 0]}],
	  "initial_files": {"tiny": 13, "small": 5}, "container_count": 7, "user_count": 4` + extra + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInitialNamesMatchSsbench(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", "")
	o := newObjects(s)
	var got [][2]string
	next := make([]int64, len(o.classes))
	want := ssbenchInitial(s)
	for _, w := range want { // find each ssbench object by its class and index
		for c := range o.classes {
			if strings.HasPrefix(w[1], o.classes[c].size.Name+"_") {
				next[c]++
				got = append(got, [2]string{o.container(c, next[c]), o.name(c, next[c])})
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

// prefilled returns a fake Swift holding s's initial objects, as ssbench
// would have put them.
func prefilled(t *testing.T, s *scenario.Scenario) *fakeSwift {
	f := newFakeSwift(t)
	for _, co := range ssbenchInitial(s) {
		f.put(co[0], co[1], 50)
	}
	return f
}

func TestRunReadsPrefilledObjects(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", "")
	f := prefilled(t, s)
	res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing")})
	if err != nil {
		t.Fatal(err)
	}
	get := res.Recording[OpRead]
	if get == nil || get.LastByte.Count() != 400 || get.ErrorCount() != 0 {
		t.Fatalf("GET recording = %+v", get)
	}
	if f.count(http.MethodPut) != 0 {
		t.Errorf("a read-only scenario made %d PUTs (containers are prefill's)", f.count(http.MethodPut))
	}
}

func TestRunCRUDCleansUpAndSetsHeaders(t *testing.T) {
	s := testScenario(t, "[4, 1, 1, 1]", `, "delete_after": 3600, "policy": "gold",
	   "container_put_headers": {"X-Container-Meta-Test": "yes"}`)
	f := prefilled(t, s)
	var intervals int
	res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing"),
		Interval: 20 * time.Millisecond, OnInterval: func(_, _ time.Time, _ results.Recording, _ results.FillRecording) { intervals++ }})
	if err != nil || res.Cleanup != nil {
		t.Fatalf("run: %v, cleanup: %v", err, res.Cleanup)
	}
	var ops int64
	for _, h := range res.Recording {
		ops += h.LastByte.Count() + h.ErrorCount()
	}
	if ops != 400 || res.Recording[OpCreate].LastByte.Count() == 0 {
		t.Fatalf("recorded %d operations, want 400 with creates: %v", ops, res.Recording)
	}
	for k := range f.objects {
		var idx int
		_, name, _ := strings.Cut(k, "/")
		if _, err := fmt.Sscanf(name[strings.LastIndex(name, "_")+1:], "%d", &idx); err != nil || idx > 13 {
			t.Errorf("object %s created by the run was left behind", k)
		}
	}
	if f.headers["X-Delete-After"][0] != "3600" || f.headers["X-Storage-Policy"][0] != "gold" ||
		f.headers["X-Container-Meta-Test"][0] != "yes" {
		t.Errorf("headers seen: %v", f.headers)
	}
	if !f.conts["ssbench_000006_gold"] || intervals == 0 || len(res.PerSecond) != intervals {
		t.Errorf("containers %v, %d intervals, per-interval counts %v", f.conts, intervals, res.PerSecond)
	}
}

func TestRunKeepLeavesCreatedObjects(t *testing.T) {
	s := testScenario(t, "[1, 0, 0, 0]", "")
	f := prefilled(t, s)
	before := len(f.objects)
	res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing"), Keep: true, Operations: 30})
	if err != nil {
		t.Fatal(err)
	}
	n := res.Recording[OpCreate].LastByte.Count()
	reads := res.Recording[OpRead].LastByte.Count() // the "small" class only reads
	if n+reads != 30 || n == 0 || len(f.objects) != before+int(n) {
		t.Fatalf("%d creates and %d reads, %d objects after, %d before", n, reads, len(f.objects), before)
	}
	if _, ok := f.objects["ssbench_000000_default_policy/tiny_000014"]; !ok {
		t.Errorf("created objects are not numbered after the initial ones: %v", f.objects)
	}
}

func TestCreatedRangeOutOfOrder(t *testing.T) {
	var r createdRange
	r.init(100)
	a, b, c := r.reserve(), r.reserve(), r.reserve()
	r.finish(c)
	r.finish(b)
	if lo, n := r.live(); lo != 100 || n != 0 {
		t.Fatalf("before the first finishes: live %d+%d", lo, n)
	}
	r.finish(a)
	if lo, n := r.live(); lo != 100 || n != 3 || len(r.done) != 0 {
		t.Fatalf("after all: live %d+%d, pending %d", lo, n, len(r.done))
	}
	if i, ok := r.popOldest(); !ok || i != 100 {
		t.Fatalf("pop = %d %v", i, ok)
	}
}
