package agents

import (
	"context"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan/decode"
)

// TestPrefillChecksEachObjectOnce: a new run over a lab that holds every
// object runs one pass (its listing check finds them all: no second
// listing), and a second workload of the same scenario and account is
// the first's objects, prefilled and checked there; a workload of
// another account gets its own passes.
func TestPrefillChecksEachObjectOnce(t *testing.T) {
	m := &labtest.Swift{Objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(&putKiller{Swift: m, after: -1}) // one token for every agent, as tempauth
	defer srv.Close()
	tb := prefillTestbed(t, srv.URL)
	// The same workload twice more: a copy, and one of another account.
	src, err := os.ReadFile(tb.File)
	if err != nil {
		t.Fatal(err)
	}
	w := string(src[strings.Index(string(src), `workload "w" {`):strings.Index(string(src), `variant "normal"`)])
	more := strings.Replace(w, `workload "w"`, `workload "same"`, 1) +
		strings.Replace(strings.Replace(w, `workload "w"`, `workload "other"`, 1), `user = "t:t"`, `user = "u:u"`, 1)
	if err := os.WriteFile(tb.File, []byte(strings.Replace(string(src), `variant "normal"`, more+`variant "normal"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.Load(tb.File, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	hosts := &localPrefill{started: map[string]int{}}
	if _, err := Prefill(context.Background(), tb, hosts, PrefillOptions{StateDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	// w: a fill that puts, then the listing check; same: nothing; other:
	// one pass that finds w's objects (the in-memory Swift has one account
	// whoever asks).
	if hosts.started["c1"] != 6 || hosts.started["c2"] != 6 {
		t.Fatalf("a first prefill started %v agents, want 6 a host (2 a pass: w's 2 passes, other's 1)", hosts.started)
	}
	hosts.started = map[string]int{}
	res, err := Prefill(context.Background(), tb, hosts, PrefillOptions{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if hosts.started["c1"] != 4 || hosts.started["c2"] != 4 {
		t.Errorf("a new run over a full lab started %v agents, want 4 a host (one pass of 2 agents, 2 workloads)", hosts.started)
	}
	if len(res) != 3 {
		t.Fatalf("%d results: %+v", len(res), res)
	}
	for _, r := range []PrefillResult{res[0], res[2]} {
		if r.SameAs != "" || r.Fill.Put != 0 || r.Fill.Skipped != 3000 || r.Verify == nil || r.Verify.Skipped != 3000 {
			t.Errorf("%s over a full lab: %+v, verify %+v", r.Workload, r, r.Verify)
		}
	}
	if s := res[1]; s.Workload != "same" || s.SameAs != "w" || s.Objects != 3000 || s.Verify == nil || s.Verify.Skipped != 3000 {
		t.Errorf("the copy of w: %+v", s)
	}
}
