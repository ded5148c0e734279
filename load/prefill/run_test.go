package prefill

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"benchbed/plan/scenario"
)

func testLayout(t *testing.T, containers, n int) *Layout {
	t.Helper()
	s := newScenario(t, containers, []scenario.Size{{Name: "4KiB", SizeMin: 4096, SizeMax: 4096}, {Name: "odd", SizeMin: 1, SizeMax: 99}},
		map[string]int{"4KiB": n, "odd": n / 3})
	l, err := NewLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// verifyAll lists every container and fails unless every object is there.
func verifyAll(t *testing.T, l *Layout, st Store) {
	t.Helper()
	for c := range l.Containers() {
		chk, err := l.CheckContainer(context.Background(), st, c)
		if err != nil {
			t.Fatal(err)
		}
		if chk.Missing() != 0 || chk.WrongSize != 0 {
			t.Fatalf("%s: %d missing, %d wrong size of %d", chk.Container, chk.Missing(), chk.WrongSize, chk.Expected)
		}
	}
}

func TestRunFreshThenNothingToDo(t *testing.T) {
	l := testLayout(t, 5, 3000)
	st := newMemStore()
	state := &State{}
	var c1 Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 8, State: state}, &c1); err != nil {
		t.Fatal(err)
	}
	if got := c1.Snapshot(); got.Put != l.Total() || got.Skipped != 0 || st.count() != int(l.Total()) {
		t.Fatalf("first run %+v, store holds %d, want %d put", got, st.count(), l.Total())
	}
	verifyAll(t, l, st)
	if !state.Complete() {
		t.Fatal("state not complete after a full prefill")
	}
	// The same checkpoint: nothing to put, nothing to list.
	lists := st.lists.Load()
	var c2 Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 8, State: state}, &c2); err != nil {
		t.Fatal(err)
	}
	if got := c2.Snapshot(); got.Put != 0 || st.lists.Load() != lists {
		t.Fatalf("rerun with a complete checkpoint: %+v, %d listings", got, st.lists.Load()-lists)
	}
	// No checkpoint (a lab prefilled earlier): listed, all skipped.
	var c3 Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 3}, &c3); err != nil {
		t.Fatal(err)
	}
	if got := c3.Snapshot(); got.Put != 0 || got.Skipped != l.Total() || got.Requests == 0 {
		t.Fatalf("rerun without checkpoint: %+v", got)
	}
}

func TestRunKilledAndResumedPutsNothingTwice(t *testing.T) {
	l := testLayout(t, 4, 20000)
	st := newMemStore()
	ctx, cancel := context.WithCancel(context.Background())
	st.onPut = func(n int64) {
		if n == l.Total()/2 {
			cancel()
		}
	}
	var saved []byte
	save := func(s *State) (err error) { saved, err = json.Marshal(s); return err }
	var c1 Counters
	err := Run(ctx, l, st, Options{Concurrency: 16, State: &State{}, Save: save}, &c1)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("killed run returned %v, want context.Canceled", err)
	}
	first := st.puts.Load()
	if first >= l.Total() || len(saved) == 0 {
		t.Fatalf("the kill came too late: %d of %d put, checkpoint %q", first, l.Total(), saved)
	}
	st.onPut = nil
	var resumed State
	if err := json.Unmarshal(saved, &resumed); err != nil {
		t.Fatal(err)
	}
	var c2 Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 4, State: &resumed, Save: save}, &c2); err != nil {
		t.Fatal(err)
	}
	got := c2.Snapshot()
	if first+got.Put != l.Total() || st.puts.Load() != l.Total() {
		t.Fatalf("resumed run put %d after %d: %d PUTs in all for %d objects", got.Put, first, st.puts.Load(), l.Total())
	}
	verifyAll(t, l, st)
}

func TestRunRetriesAndReportsFailures(t *testing.T) {
	l := testLayout(t, 3, 300)
	st := newMemStore()
	st.failFirst = map[string]bool{l.At(0).Name: true, l.At(7).Name: true}
	st.failAlways = map[string]bool{l.At(42).Name: true}
	var cnt Counters
	err := Run(context.Background(), l, st, Options{Concurrency: 4, Retries: 2, Backoff: 1}, &cnt)
	if err == nil || !strings.Contains(err.Error(), "1 objects could not be put") {
		t.Fatalf("err = %v", err)
	}
	got := cnt.Snapshot()
	if got.Failed != 1 || got.Retried != 2+2 || got.Put != l.Total()-1 {
		t.Fatalf("counters %+v", got)
	}
	// The failing object heals: a second run puts exactly it.
	st.failAlways = nil
	var again Counters
	if err := Run(context.Background(), l, st, Options{Concurrency: 4}, &again); err != nil {
		t.Fatal(err)
	}
	if again.Snapshot().Put != 1 {
		t.Fatalf("second run %+v, want exactly one PUT", again.Snapshot())
	}
	verifyAll(t, l, st)
}

func TestWrongSizeIsPutAgainAndForeignIgnored(t *testing.T) {
	l := testLayout(t, 2, 100)
	st := newMemStore()
	ctx := context.Background()
	for _, c := range l.Containers() {
		_ = st.PutContainer(ctx, c)
	}
	o := l.At(2)                                                  // 4KiB_2: its class allows 4096 bytes only
	_ = st.PutObject(ctx, l.Containers()[o.Container], o.Name, 5) // wrong size
	_ = st.PutObject(ctx, l.Containers()[0], "4KiB_999999", 4096) // beyond the count: foreign
	chk, err := l.CheckContainer(ctx, st, o.Container)
	if err != nil || chk.WrongSize != 1 || chk.Present != 0 {
		t.Fatalf("check %+v %v", chk, err)
	}
	if c0, _ := l.CheckContainer(ctx, st, 0); c0.Foreign != 1 {
		t.Fatalf("foreign objects counted %d, want 1", c0.Foreign)
	}
	var cnt Counters
	if err := Run(ctx, l, st, Options{}, &cnt); err != nil {
		t.Fatal(err)
	}
	verifyAll(t, l, st)
}

func TestHeadVerifyAndParts(t *testing.T) {
	l := testLayout(t, 3, 900)
	st := newMemStore()
	var a, b Counters
	if err := Run(context.Background(), l, st, Options{Verify: "head", Part: 0, Parts: 2}, &a); err != nil {
		t.Fatal(err)
	}
	if a.Snapshot().Put == 0 || a.Snapshot().Put == l.Total() {
		t.Fatalf("part 0 of 2 put %d of %d", a.Snapshot().Put, l.Total())
	}
	if err := Run(context.Background(), l, st, Options{Verify: "head", Part: 1, Parts: 2}, &b); err != nil {
		t.Fatal(err)
	}
	if a.Snapshot().Put+b.Snapshot().Put != l.Total() || st.heads.Load() != l.Total() {
		t.Fatalf("parts put %d + %d with %d HEADs, want %d", a.Snapshot().Put, b.Snapshot().Put, st.heads.Load(), l.Total())
	}
	verifyAll(t, l, st)
}

func TestCheckpointOfAnotherLayoutRefused(t *testing.T) {
	l := testLayout(t, 3, 90)
	other := testLayout(t, 4, 90)
	st := &State{}
	if err := Run(context.Background(), other, newMemStore(), Options{State: st}, &Counters{}); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), l, newMemStore(), Options{State: st}, &Counters{})
	if err == nil || !strings.Contains(err.Error(), "another layout") {
		t.Fatalf("err = %v", err)
	}
}
