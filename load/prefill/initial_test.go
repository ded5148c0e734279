package prefill

import (
	"context"
	"errors"
	"strings"
	"testing"

	"benchbed/plan/scenario"
)

// TestInitialPutsOnceThenFindsEverything: a first run puts every initial
// file, a second finds them all by listing and puts none, and a run's own
// objects (foreign names) are left alone.
func TestInitialPutsOnceThenFindsEverything(t *testing.T) {
	s := newScenario(t, 100, []scenario.Size{{Name: "tiny", SizeMin: 4096, SizeMax: 65536}, {Name: "small", SizeMin: 100000, SizeMax: 200000}},
		map[string]int{"tiny": 100, "small": 10})
	st := newMemStore()
	var calls int
	first, err := Initial(context.Background(), s, st, Options{Concurrency: 7}, func(Totals) { calls++ })
	if err != nil || first.Put != 110 || first.Skipped != 0 || st.count() != 110 || calls == 0 {
		t.Fatalf("first run: %+v, %v; store holds %d; %d progress calls", first, err, st.count(), calls)
	}
	if err := st.PutObject(context.Background(), s.ContainerName(11), "tiny_000101", 5000); err != nil {
		t.Fatal(err)
	}
	puts := st.puts.Load()
	second, err := Initial(context.Background(), s, st, Options{Concurrency: 7}, nil)
	if err != nil || second.Put != 0 || second.Skipped != 110 || st.puts.Load() != puts {
		t.Fatalf("second run: %+v, %v, %d PUTs", second, err, st.puts.Load()-puts)
	}
}

// TestCheckOnlyCountsWhatIsMissingAndPutsNothing: the precondition check
// names the containers short of objects, with their counts, and changes
// nothing, not even containers.
func TestCheckOnlyCountsWhatIsMissingAndPutsNothing(t *testing.T) {
	s := newScenario(t, 4, []scenario.Size{{Name: "4KiB", SizeMin: 4096, SizeMax: 4096}}, map[string]int{"4KiB": 300})
	st := newMemStore()
	tot, err := Initial(context.Background(), s, st, Options{Concurrency: 4, CheckOnly: true}, nil)
	if err != nil || tot.Missing != 300 || tot.Skipped != 0 || len(tot.Short) != 4 || st.puts.Load() != 0 || len(st.objs) != 0 {
		t.Fatalf("empty account: %+v, %v; %d PUTs, %d containers", tot, err, st.puts.Load(), len(st.objs))
	}
	if _, err := Initial(context.Background(), s, st, Options{Concurrency: 4}, nil); err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	delete(st.objs[s.ContainerName(2)], "4KiB_000003") // object k=2 lives in container 2
	st.mu.Unlock()
	tot, err = Initial(context.Background(), s, st, Options{Concurrency: 4, CheckOnly: true}, nil)
	if err != nil || tot.Missing != 1 || tot.Skipped != 299 || len(tot.Short) != 1 {
		t.Fatalf("one missing: %+v, %v", tot, err)
	}
	want := Shortfall{Container: s.ContainerName(2), Expected: 75, Present: 74}
	if tot.Short[0] != want {
		t.Fatalf("shortfall %+v, want %+v", tot.Short[0], want)
	}
	msg := (&MissingError{Workload: "4K_get", Expected: 300, Totals: tot}).Error()
	if !strings.Contains(msg, "4K_get: 1 of its 300 initial objects are missing (pf_000002_default_policy holds 74 of 75)") {
		t.Fatalf("message: %s", msg)
	}
	var me *MissingError
	if !errors.As(error(&MissingError{}), &me) {
		t.Fatal("MissingError is not an error")
	}
}
