package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"benchbed/results/metrics"
	"benchbed/results/rundir"
)

func init() { register(newExportCmd) }

// exportCmdFlags are `benchbed export`'s options.
type exportCmdFlags struct {
	to          []string // remote write URLs
	influx      []string // InfluxDB write URLs
	openMetrics string   // an OpenMetrics file to write
	runsDir     string
}

func newExportCmd() *cobra.Command {
	var f exportCmdFlags
	var lf *loadFlags
	cmd := &cobra.Command{
		Use:   "export RUN | export FILE [ID|latest] (--to URL | --influx URL | --openmetrics FILE)",
		Short: "Send a finished run's per-second figures to Prometheus, VictoriaMetrics or InfluxDB, or write them as OpenMetrics",
		Long: "RUN is a sweep's run directory, or the testbed FILE and a run id (default latest), as for report.\n" +
			"Each cell's agents' streams are merged by interval into the series a live --remote-write sends\n" +
			"(docs/metrics.md), with the cell's host telemetry, at the times they were measured.\n" +
			"--to URL sends them by Prometheus remote write 1.0 (repeatable; Prometheus refuses samples older\n" +
			"than its head, about an hour: VictoriaMetrics takes any age), --influx URL as line protocol,\n" +
			"--openmetrics FILE writes an OpenMetrics file that `promtool tsdb create-blocks-from openmetrics`\n" +
			"backfills. Every URL is probed first. Unlike a live stream nothing is dropped: a refused write\n" +
			"stops the export.\n" +
			"Exit status: 0 exported, 1 a receiver refused or a cell's streams are broken (what could be read\n" +
			"is sent), 2 usage, no such run or its summary unreadable.",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error { return runExportCmd(cmd, args, lf, f) },
	}
	lf = addLoadFlags(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&f.to, "to", nil, "Prometheus remote write 1.0 URL (repeatable)")
	fl.StringArrayVar(&f.influx, "influx", nil, "InfluxDB line-protocol write URL (repeatable; token in "+metrics.TokenEnv+")")
	fl.StringVar(&f.openMetrics, "openmetrics", "", "write the series as an OpenMetrics file with timestamps")
	fl.StringVar(&f.runsDir, "runs-dir", "", "root of the run directories, with FILE (default: the testbed's sweep.runs_dir)")
	return cmd
}

func runExportCmd(cmd *cobra.Command, args []string, lf *loadFlags, f exportCmdFlags) error {
	if len(f.to)+len(f.influx) == 0 && f.openMetrics == "" {
		return usagef(cmd, "give --to URL, --influx URL or --openmetrics FILE")
	}
	dir, err := reportRunDir(cmd, args, lf, f.runsDir)
	if err != nil {
		return inputError(err)
	}
	rr, err := rundir.ReadRun(dir)
	if err != nil {
		return inputError(err)
	}
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	var outs []metrics.Output
	for _, u := range f.to {
		outs = append(outs, &metrics.RemoteWrite{URL: u, Client: client})
	}
	for _, u := range f.influx {
		outs = append(outs, &metrics.Influx{URL: u, Client: client})
	}
	ctx := context.Background()
	for _, o := range outs {
		pctx, cancel := context.WithTimeout(ctx, streamLimits.probe)
		err := o.Probe(pctx)
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", o.Name(), err)
		}
	}
	var all []metrics.Point // the OpenMetrics file's: a family is written once, whole
	n, err := metrics.ExportRun(rr, func(pts []metrics.Point) error {
		if f.openMetrics != "" {
			all = append(all, pts...)
		}
		return sendAll(ctx, outs, pts)
	})
	if f.openMetrics != "" {
		if werr := writeOpenMetrics(f.openMetrics, all); werr != nil {
			return werr
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "benchbed: exported %d cells of %s\n", n, rr.Summary.Run)
	return err
}

// exportChunk is the points of one write.
const exportChunk = 20000

// sendAll writes pts to every output in chunks.
func sendAll(ctx context.Context, outs []metrics.Output, pts []metrics.Point) error {
	for _, o := range outs {
		for i := 0; i < len(pts); i += exportChunk {
			wctx, cancel := context.WithTimeout(ctx, time.Minute)
			err := o.Write(wctx, pts[i:min(i+exportChunk, len(pts))])
			cancel()
			if err != nil {
				return fmt.Errorf("%s: %w", o.Name(), err)
			}
		}
	}
	return nil
}

// writeOpenMetrics writes pts to the file at path.
func writeOpenMetrics(path string, pts []metrics.Point) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := metrics.WriteOpenMetrics(w, pts); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
