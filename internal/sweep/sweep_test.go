package sweep

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"benchbed/internal/custody"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/templates/secrets"
)

// bareSweeper is a Sweeper with a run directory and journal and no hosts,
// for the step machinery.
func bareSweeper(t *testing.T) *Sweeper {
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	j, err := run.OpenJournal()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	s := &Sweeper{inputs: inputs{tb: &plan.Testbed{Name: "tb", Sensitive: []string{"s3cret-key"}}, run: run}}
	s.steps = &step.Runner{Journal: j, Mask: s.Mask, Log: s.logf}
	return s
}

func TestCleanupsRunInReverseEvenAfterAFailure(t *testing.T) {
	s := bareSweeper(t)
	var order []string
	for _, name := range []string{"lock", "backup", "third"} {
		s.steps.Push(step.Step{Name: name, Undo: func(context.Context) error {
			order = append(order, name)
			if name == "backup" {
				return errors.New("restore failed with s3cret-key")
			}
			return nil
		}})
	}
	if got := strings.Join(s.Left(), "\n"); !strings.Contains(got, "undo third") ||
		strings.Index(got, "benchbed restore") > strings.Index(got, custody.LockDir) {
		t.Fatalf("left, newest first:\n%s", got)
	}
	err := s.steps.Unwind(context.Background())
	if strings.Join(order, ",") != "third,backup,lock" {
		t.Fatalf("cleanups ran %v, want third,backup,lock", order)
	}
	if err == nil || !strings.Contains(err.Error(), "undo backup") {
		t.Fatalf("unwind error %v", err)
	}
	// The failed restore is still to do, and said so; the others are done.
	if left := s.Left(); len(left) != 1 || !strings.Contains(left[0], "benchbed restore "+s.run.Dir) {
		t.Fatalf("left after unwind: %v, want only the failed restore", left)
	}
	es, err := s.run.ReadJournal()
	if err != nil {
		t.Fatal(err)
	}
	var failed *rundir.Entry
	for i, e := range es {
		if e.Status == rundir.StepFailed {
			failed = &es[i]
		}
	}
	if failed == nil || failed.Step != "undo-backup" || strings.Contains(failed.Detail, "s3cret") || !strings.Contains(failed.Detail, secrets.Masked) {
		t.Fatalf("journal's failed entry %+v: the undo's failure, its secret masked", failed)
	}
}

func TestFinishedCellsAreKeptOnResume(t *testing.T) {
	s := bareSweeper(t)
	c := plan.Cell{ID: "001-normal-w-r1", Index: 1, Variant: &plan.Variant{Name: "normal", Description: "normal; 2 workers"},
		Workload: &plan.Workload{Name: "w"}, Repeat: 1}
	want := results.Cell{Variant: "normal", Workload: "w", Repeat: 1, Status: "ok",
		Total: results.OpSummary{Count: 10, ReqPerS: 12.5}}
	if err := s.run.WriteCell(c.ID, &want); err != nil {
		t.Fatal(err)
	}
	got, err := s.readCell(c)
	if err != nil || got.Total.Count != 10 || got.Status != "ok" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	s.cells = []cellResult{{cell: c, res: got}}
	sum, err := s.writeSummary()
	if err != nil || len(sum.Cells) != 1 {
		t.Fatalf("summary %+v, %v", sum, err)
	}
	var tbl strings.Builder
	if err := s.Table(&tbl); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tbl.String(), "normal; 2 workers") || !strings.Contains(tbl.String(), "12.5") ||
		!strings.Contains(tbl.String(), "errors") {
		t.Fatalf("table:\n%s", tbl.String())
	}
}
