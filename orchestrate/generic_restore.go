package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"benchbed/plan"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// writeGenericState records before in the run (rundir.ServicesFile):
// what `benchbed restore` needs to stop the services the sweep started.
func writeGenericState(run *rundir.Run, before map[string]bool) error {
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

// restoreGenericServices puts the generic services back as a sweep found them,
// once their original confs are back: a service that did not run before
// ("host/service" false in before) is stopped; one that did is restarted
// as declared, on its original conf, and waited for (within timeout). A
// service the sweep never touched is left.
func restoreGenericServices(ctx context.Context, tb *plan.Testbed, p *remote.Pool, before map[string]bool, rep *report, timeout time.Duration) error {
	var again []string
	err := p.FanOut(ctx, names(genericHosts(tb)), func(ctx context.Context, host string) error {
		var errs []error
		for _, g := range hostGenerics(tb, tb.Host(host)) {
			was, touched := before[genericKey(host, g.Name)]
			switch {
			case !touched:
			case !was:
				errs = append(errs, stopGeneric(ctx, p, host, g))
				rep.Change(host, "stopped %s (it did not run before the sweep)", g.Name)
			default:
				_, err := startGenericService(ctx, p, host, g, nil, true, rep)
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}).Err()
	for k, was := range before {
		if h, _, _ := strings.Cut(k, "/"); was && !slices.Contains(again, h) {
			again = append(again, h)
		}
	}
	if err != nil || len(again) == 0 {
		return err
	}
	return genericHealthy(ctx, tb, p, again, timeout)
}

// genericHealthy waits for every generic service of hosts, within timeout.
func genericHealthy(ctx context.Context, tb *plan.Testbed, p *remote.Pool, hosts []string, timeout time.Duration) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return p.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		for _, g := range hostGenerics(tb, tb.Host(host)) {
			if err := waitGenericHealthy(ctx, p, hc, tb.Host(host), g); err != nil {
				return err
			}
		}
		return nil
	}).Err()
}

// restoreGenericRun is restoreGenericServices with what the run recorded, for
// `benchbed restore` (the files are back already).
func restoreGenericRun(ctx context.Context, tb *plan.Testbed, p *remote.Pool, run *rundir.Run, log io.Writer) error {
	before, err := readGenericState(run)
	if err != nil || len(before) == 0 {
		return err
	}
	rep := newReport(names(tb.Hosts))
	err = restoreGenericServices(ctx, tb, p, before, rep, 120*time.Second)
	if log != nil {
		for _, h := range tb.Hosts {
			for _, c := range rep.Changes(h.Name) {
				fmt.Fprintf(log, "restore: %s: %s\n", h.Name, c)
			}
		}
	}
	return err
}
