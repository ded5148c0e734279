package faults

import (
	"strings"
	"testing"
	"time"

	"benchbed/plan/decode"
	"benchbed/plan/schedule"
)

func TestActionsRegisterTheUndoWithTheApply(t *testing.T) {
	tb, diags := decode.Load("testdata/faults.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	acts, err := Actions(tb, tb.Variant("faults"), time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	undone := map[int]bool{}
	applied := map[int]bool{}
	for _, a := range acts {
		got = append(got, string(a.Step)+" "+a.At.String())
		switch a.Step {
		case schedule.StepFaultApply:
			applied[a.Fault] = true
			for _, h := range a.Targets {
				if !strings.Contains(h.Scripts.Undo, "id="+h.Target.ID) || h.Scripts.Check == "" {
					t.Errorf("fault %d on %s: applied without its undo and check", a.Fault, h.Target.Host)
				}
			}
		case schedule.StepFaultUndo:
			if !applied[a.Fault] || undone[a.Fault] {
				t.Errorf("fault %d undone before its apply, or twice", a.Fault)
			}
			undone[a.Fault] = true
		}
	}
	want := "fault-apply 10s fault-undo 30s fault-apply 35s fault-undo 40s fault-apply 45s fault-undo 1m0s"
	if strings.Join(got, " ") != want {
		t.Errorf("actions %q, want %q", strings.Join(got, " "), want)
	}
	if len(undone) != 3 {
		t.Errorf("undone: %v", undone)
	}
}
