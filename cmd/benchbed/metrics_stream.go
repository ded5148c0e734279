package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"time"

	"benchbed/load"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/metrics"
	"github.com/spf13/pflag"
)

// metricsFlags are the streaming options of `load` and `sweep`
// (docs/metrics.md).
type metricsFlags struct {
	remoteWrite []string // Prometheus remote write 1.0 URLs
	influx      []string // InfluxDB write URLs
	listen      string   // address of a /metrics page
	queue       int      // batches each output's queue holds
}

// add registers the flags on fl.
func (m *metricsFlags) add(fl *pflag.FlagSet) {
	fl.StringArrayVar(&m.remoteWrite, "remote-write", nil, "stream per-second figures to this Prometheus remote write 1.0 URL (repeatable; Prometheus' or VictoriaMetrics' /api/v1/write)")
	fl.StringArrayVar(&m.influx, "influx", nil, "stream per-second figures as line protocol to this InfluxDB write URL (repeatable; /write?db=DB or /api/v2/write?org=O&bucket=B, token in "+metrics.TokenEnv+")")
	fl.StringVar(&m.listen, "metrics-listen", "", "serve the latest per-second figures as OpenMetrics on http://ADDR/metrics")
	fl.IntVar(&m.queue, "metrics-queue", metrics.DefaultQueue, "batches (seconds) each stream's queue holds before it drops")
}

// any reports whether any output is asked for.
func (m metricsFlags) any() bool {
	return len(m.remoteWrite) > 0 || len(m.influx) > 0 || m.listen != ""
}

// withTestbed adds a testbed's metrics block to the flags (the flags'
// queue wins when given).
func (m metricsFlags) withTestbed(tm plan.Metrics) metricsFlags {
	m.remoteWrite = append(slices.Clone(tm.RemoteWrite), m.remoteWrite...)
	m.influx = append(slices.Clone(tm.Influx), m.influx...)
	if m.listen == "" {
		m.listen = tm.Listen
	}
	if m.queue == metrics.DefaultQueue && tm.Queue > 0 {
		m.queue = tm.Queue
	}
	return m
}

// setRun names the run in the closing note (a sweep's, once its run
// directory exists).
func (l *liveMetrics) setRun(id string) {
	if l != nil {
		l.state.Run = id
	}
}

// observer is the stream as a sweep's observer (nil when none).
func (l *liveMetrics) observer() metrics.Observer {
	if l == nil {
		return nil
	}
	return l.agg
}

// liveMetrics is a run's stream: the aggregator, its exporter and the
// /metrics server. A nil *liveMetrics streams nothing.
type liveMetrics struct {
	agg   *metrics.Aggregator
	exp   *metrics.Exporter
	srv   *http.Server
	state metrics.State
}

// streamLimits bound each output's probe, each write of a batch and the
// wait for the queues to drain at the end (a receiver slower than a write
// or the drain loses batches, counted as dropped). Tests that want every
// batch delivered raise them to minutes: bounds of a hang, which a loaded
// machine's slow receiver never reaches.
var streamLimits = struct{ probe, write, drain time.Duration }{10 * time.Second, metrics.WriteTimeout, 5 * time.Second}

// startMetrics builds the outputs the flags ask, probes them (a wrong URL
// fails here, before anything changes) and opens the /metrics listener.
// It returns nil without outputs.
func startMetrics(ctx context.Context, m metricsFlags, base metrics.State) (*liveMetrics, error) {
	if !m.any() {
		return nil, nil
	}
	client := &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 2}}
	var outs []metrics.Output
	for _, u := range m.remoteWrite {
		outs = append(outs, &metrics.RemoteWrite{URL: u, Client: client})
	}
	for _, u := range m.influx {
		outs = append(outs, &metrics.Influx{URL: u, Client: client})
	}
	var srv *http.Server
	if m.listen != "" {
		ln, err := net.Listen("tcp", m.listen)
		if err != nil {
			return nil, fmt.Errorf("--metrics-listen: %w", err)
		}
		page := &metrics.Scrape{Addr: ln.Addr().String()}
		mux := http.NewServeMux()
		mux.Handle("/metrics", page)
		srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		outs = append(outs, page)
	}
	exp := metrics.NewExporterWithin(m.queue, streamLimits.write, outs...)
	pctx, cancel := context.WithTimeout(ctx, streamLimits.probe)
	defer cancel()
	if err := exp.Probe(pctx); err != nil {
		exp.Close(0)
		if srv != nil {
			_ = srv.Close()
		}
		return nil, fmt.Errorf("metrics: %w", err)
	}
	return &liveMetrics{agg: metrics.NewAggregator(exp.Send), exp: exp, srv: srv, state: base}, nil
}

// phase starts a phase of the run (with its offered rate, 0 for a
// closed loop) and returns cfg telling the stream its intervals.
func (l *liveMetrics) phase(cfg load.Config, phase string, endpoint string) load.Config {
	if l == nil {
		return cfg
	}
	s := l.state
	s.Phase, s.Rate = phase, cfg.Rate
	l.agg.Phase(s, []string{endpoint}, time.Now())
	index, prev := 0, cfg.OnInterval
	cfg.OnInterval = func(start, end time.Time, r results.Recording, fill results.FillRecording) {
		if prev != nil {
			prev(start, end, r, fill)
		}
		l.agg.Interval(0, index, start, end, r)
		index++
	}
	return cfg
}

// measured ends the measured phase with its duration as the load
// measured it (the summary's), so that its last points are the cell's.
func (l *liveMetrics) measured(d time.Duration) {
	if l == nil {
		return
	}
	l.agg.Measured(d, time.Now())
}

// phaseFunc starts a phase and returns the config that streams it.
type phaseFunc func(cfg load.Config, phase string) load.Config

// probes is phase for endpoint, the shape a capacity search's probes use.
func (l *liveMetrics) probes(endpoint string) phaseFunc {
	return func(cfg load.Config, phase string) load.Config { return l.phase(cfg, phase, endpoint) }
}

// loadState is the labels of a `benchbed load` of the scenario named
// name: a run id from the start time, the scenario as workload and cell.
func loadState(name string) metrics.State {
	return metrics.State{Run: "load-" + time.Now().UTC().Format("20060102T150405Z"), Workload: name, Cell: name}
}

// close ends the stream: the last phase is told, the queues drain (for
// at most streamLimits.drain) and each output's batches sent and dropped are said
// on w.
func (l *liveMetrics) close(w io.Writer) {
	if l == nil {
		return
	}
	l.agg.End(time.Now())
	for _, s := range l.exp.Close(streamLimits.drain) {
		fmt.Fprintln(w, "benchbed: metrics:", s)
	}
	if l.state.Run != "" {
		fmt.Fprintf(w, "benchbed: metrics: each cell's req/s (summary.json's req_per_s): "+
			"last_over_time(benchbed_phase_requests_per_second{run=%q,phase=\"run\",op=\"all\"}[1h])\n", l.state.Run)
	}
	if l.srv != nil {
		err := l.srv.Close()
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(w, "benchbed: metrics:", err)
		}
	}
}
