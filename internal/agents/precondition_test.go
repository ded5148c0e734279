package agents

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/load"
	"benchbed/load/prefill"
	"benchbed/plan/scenario"
)

// TestPreconditionRefusesMissingInitialObjects: without a prefill block,
// the sweep's precondition lists the containers (no PUT, no container
// created) and refuses, naming the workload, the containers short and the
// counts, and how to prefill; once the objects are there it passes, and
// one object gone is named again.
func TestPreconditionRefusesMissingInitialObjects(t *testing.T) {
	m := &labtest.Swift{Objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	tb := labtest.GateTestbed(t, srv.URL, "")
	hosts := &localPrefill{started: map[string]int{}}
	err := CheckInitial(context.Background(), tb, hosts, nil)
	var pe *preconditionError
	if !errors.As(err, &pe) || len(m.Objects) != 0 {
		t.Fatalf("empty account: %v; %d containers created", err, len(m.Objects))
	}
	for _, want := range []string{"workload 4K_get: 300 of its 300 initial objects are missing",
		"gate_000000_default_policy holds 0 of 100", "gate_000002_default_policy holds 0 of 100",
		"add `prefill { workloads = [\"4K_get\"] }` to " + tb.File, "nothing was changed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q:\n%v", want, err)
		}
	}
	sc, _ := scenario.Parse(tb.Workloads[0].ScenarioJSON)
	st, err := prefill.NewHTTPStore(load.AuthSpec{URL: srv.URL + "/auth/v1.0", User: "t:t", Key: "k"}, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prefill.Initial(context.Background(), sc, st, prefill.Options{Concurrency: 4}, nil); err != nil {
		t.Fatal(err)
	}
	if err := CheckInitial(context.Background(), tb, hosts, nil); err != nil {
		t.Fatalf("every object in place: %v", err)
	}
	m.Mu.Lock()
	delete(m.Objects["gate_000001_default_policy"], "4KiB_000002")
	m.Mu.Unlock()
	err = CheckInitial(context.Background(), tb, hosts, nil)
	if err == nil || !strings.Contains(err.Error(), "1 of its 300 initial objects are missing (gate_000001_default_policy holds 99 of 100)") {
		t.Fatalf("one object gone: %v", err)
	}
}

func TestReadsInitial(t *testing.T) {
	for crud, want := range map[string]bool{"[1, 0, 0, 0]": false, "[0, 1, 0, 0]": true, "[1, 0, 1, 0]": true, "[1, 0, 0, 1]": true} {
		sc, err := scenario.Parse([]byte(strings.Replace(labtest.GateScenario, "[0, 1, 0, 0]", crud, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if sc.ReadsInitial() != want {
			t.Errorf("%s: ReadsInitial = %v", crud, !want)
		}
	}
}
