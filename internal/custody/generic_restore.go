package custody

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// WriteGenericState records before in the run (rundir.ServicesFile):
// what `benchbed restore` needs to stop the services the sweep started.
func WriteGenericState(run *rundir.Run, before map[string]bool) error {
	b, err := json.MarshalIndent(before, "", "  ")
	if err != nil {
		return err
	}
	return run.WriteFile(rundir.ServicesFile, append(b, '\n'))
}

// readGenericState reads the run's record of the generic services; a run
// without one (no generic service, or none touched) gives none.
func readGenericState(run *rundir.Run) (map[string]bool, error) {
	p, err := run.Path(rundir.ServicesFile)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	return out, json.Unmarshal(b, &out)
}

// restoreGenericRun is restoreGenericServices with what the run recorded, for
// `benchbed restore` (the files are back already).
func restoreGenericRun(ctx context.Context, tb *plan.Testbed, p *remote.Pool, run *rundir.Run, log io.Writer, timeout time.Duration) error {
	before, err := readGenericState(run)
	if err != nil || len(before) == 0 {
		return err
	}
	rep := cluster.NewReport(cluster.Names(tb.Hosts))
	err = cluster.RestoreGenericServices(ctx, tb, p, before, rep, timeout)
	if log != nil {
		for _, h := range tb.Hosts {
			for _, c := range rep.Changes(h.Name) {
				fmt.Fprintf(log, "restore: %s: %s\n", h.Name, c)
			}
		}
	}
	return err
}
