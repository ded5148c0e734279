package e2e

import (
	"encoding/json"
	"slices"
	"testing"

	"benchbed/results/rundir"
)

// checkJournalFollowsPlan: the steps `benchbed plan --json` prints are the
// steps the sweep journaled, in order: the run-wide ones before the cells
// and those of the sweep's first cell (which must be the plan's first:
// the sweep ran from the start of the matrix).
func checkJournalFollowsPlan(t *testing.T, lab *Env, tb, run string) {
	t.Helper()
	out, errOut, err := lab.Benchbed(t, "plan", "--json", tb)
	if err != nil {
		t.Fatalf("benchbed plan --json: %v\n%s", err, errOut)
	}
	var p struct {
		Before []struct{ Kind string }
		Cells  []struct {
			ID    string
			Steps []struct{ Kind string }
		}
	}
	must(t, json.Unmarshal([]byte(out), &p))
	if len(p.Cells) == 0 {
		t.Fatalf("plan --json has no cells:\n%s", out)
	}
	var wantWide, wantCell []string
	for _, s := range p.Before {
		wantWide = appendKind(wantWide, s.Kind)
	}
	for _, s := range p.Cells[0].Steps {
		wantCell = appendKind(wantCell, s.Kind)
	}
	r, err := rundir.Open(run, "lab")
	must(t, err)
	es, err := r.ReadJournal()
	must(t, err)
	var gotWide, gotCell []string
	for _, e := range es {
		switch {
		case e.Status != rundir.StepStarted:
		case e.Cell == "" && !slices.Contains(gotWide, "cells"):
			gotWide = appendKind(gotWide, e.Step)
		case e.Cell == p.Cells[0].ID:
			gotCell = appendKind(gotCell, e.Step)
		}
	}
	if want := append(wantWide, "cells"); !slices.Equal(gotWide, want) {
		t.Errorf("run-wide steps: journal %v, plan %v", gotWide, want)
	}
	if !slices.Equal(gotCell, wantCell) {
		t.Errorf("cell %s: journal %v, plan %v", p.Cells[0].ID, gotCell, wantCell)
	}
}

// appendKind appends k unless it repeats the last kind.
func appendKind(ks []string, k string) []string {
	if len(ks) > 0 && ks[len(ks)-1] == k {
		return ks
	}
	return append(ks, k)
}
