package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"benchbed/plan/proxylog"
	"benchbed/plan/scenario"
	"benchbed/results/rundir"
	"benchbed/results/workload"

	"github.com/spf13/cobra"
)

func init() { register(newWorkloadCmd) }

func newWorkloadCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workload",
		Short: "Workloads from production traffic: fit Swift's proxy access logs",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newWorkloadFitCmd())
	return cmd
}

// fitFlags are `workload fit`'s flags.
type fitFlags struct {
	json       bool
	out        string
	template   string
	names      string
	name       string
	maxObjects int
	plot       string
}

func newWorkloadFitCmd() *cobra.Command {
	var f fitFlags
	cmd := &cobra.Command{
		Use:   "fit LOG... [--json] [--out SCENARIO]",
		Short: "Fit a workload to proxy access logs: mix, sizes, popularity, rate, lifetimes; write it as a scenario",
		Long: "Reads Swift proxy access logs (proxy_logging's default line or --template, with or without a\n" +
			"syslog prefix, plain or gzip, one file per proxy merged by time) as a stream, and prints the\n" +
			"fit: the mix by method with status classes, size and latency quantiles per method, popularity\n" +
			"(a Zipf exponent), the mean rate and its profile, PUT-to-GET and PUT-to-DELETE times. Lines that\n" +
			"do not parse are counted, the first shown. --out writes the fit as a scenario benchbed runs.\n" +
			"Auth tokens and account names are never printed; object names are hashed unless --names clear.\n" +
			"Exit status: 0 fitted; 1 no client object request to fit; 2 usage, an unreadable log; 130 interrupted.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runWorkloadFit(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the fit as JSON")
	fl.StringVar(&f.out, "out", "", "write the fitted scenario to this file")
	fl.StringVar(&f.template, "template", proxylog.DefaultTemplate, "the proxies' log_msg_template")
	fl.StringVar(&f.names, "names", "hashed", "how hot objects are named in the fit: hashed or clear (container/object; never the account)")
	fl.StringVar(&f.name, "name", "", "the scenario's name (default \"fitted from proxy logs\")")
	fl.IntVar(&f.maxObjects, "max-objects", 10000, "initial objects of the scenario at most")
	fl.StringVar(&f.plot, "plot", "", "draw the logged against the fitted scenario's size distributions to this .svg, .png or .pdf")
	return cmd
}

func runWorkloadFit(cmd *cobra.Command, logs []string, f fitFlags) error {
	if f.names != "hashed" && f.names != "clear" {
		return usagef(cmd, "--names %q: want hashed or clear", f.names)
	}
	format := strings.TrimPrefix(filepath.Ext(f.plot), ".")
	if f.plot != "" && format != "svg" && format != "png" && format != "pdf" {
		return usagef(cmd, "--plot %q: want a .svg, .png or .pdf file", f.plot)
	}
	tp, err := proxylog.Compile(f.template)
	if err != nil {
		return usagef(cmd, "--template: %v", err)
	}
	r, err := proxylog.Open(tp, logs...)
	if err != nil {
		return inputError(err)
	}
	defer r.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fitter := workload.New(workload.Options{ClearNames: f.names == "clear"})
	if err := feed(ctx, r, fitter); err != nil {
		return interrupted(ctx, err)
	}
	if err := r.Err(); err != nil {
		return inputError(err)
	}
	fit := fitter.Fit(r.Stats())
	if fit.Garbled > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "benchbed: note: %d of %d lines did not parse; the first: %s\n", fit.Garbled, fit.Lines, fit.FirstGarbled)
	}
	if err := printFit(cmd.OutOrStdout(), fit, f.json); err != nil {
		return err
	}
	if len(fit.Ops) == 0 {
		return errors.New("the logs hold no client request on an object to fit")
	}
	if f.out == "" && f.plot == "" {
		return nil
	}
	s, err := fitter.Scenario(fit, workload.ScenarioOptions{Name: f.name, MaxObjects: f.maxObjects})
	if err != nil {
		return err
	}
	if f.plot != "" {
		if err := writePlot(f.plot, format, fitter, s); err != nil {
			return inputError(err)
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: size plot written to", f.plot)
	}
	if f.out == "" {
		return nil
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := rundir.WriteFileAtomic(f.out, append(data, '\n'), 0o644); err != nil {
		return inputError(err)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: scenario written to", f.out)
	return nil
}

// writePlot draws the size plot into path, atomically.
func writePlot(path, format string, fitter *workload.Fitter, s *scenario.Scenario) error {
	var b bytes.Buffer
	if err := fitter.PlotSizes(&b, s, format); err != nil {
		return err
	}
	return rundir.WriteFileAtomic(path, b.Bytes(), 0o644)
}

// feed adds every record of r to fitter, until ctx is done.
func feed(ctx context.Context, r *proxylog.Reader, fitter *workload.Fitter) error {
	n := 0
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		fitter.Add(rec)
		if n++; n%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// printFit prints the fit as text or JSON.
func printFit(w io.Writer, fit *workload.Fit, asJSON bool) error {
	if !asJSON {
		return workload.WriteText(w, fit)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(fit)
}
