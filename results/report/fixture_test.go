package report

import (
	"benchbed/results"
	"benchbed/results/rundir"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hostile is a testbed name (user input) that must never reach the page
// unescaped.
const hostile = `lab<script>alert("x")</script>&`

// secret is a sensitive variable's default in the run's testbed.hcl (the
// sweep copies the file as it is): no output may hold it.
const secret = "s3cr3t-auth-key"

// fixCell describes one crafted cell: its latencies in milliseconds are
// base, base+step, ... (n values, all GETs), and a failed cell has none.
type fixCell struct {
	id, variant string
	repeat      int
	status      string
	err         string
	base, step  float64
	n           int
	noStreams   bool
	mbps        []float64 // a command workload's cell: each copy's throughput in MB/s, no operations
	telemetry   float64   // scale of testdata/telemetry's load; 0: no telemetry
}

// fixture is the default crafted run: two variants with two repeats each,
// one cell whose id needs escaping, and a failed cell.
var fixture = []fixCell{
	{id: "001-normal-64K_get-r1", variant: "normal", repeat: 1, status: "ok", base: 10, step: 0.05, n: 2000},
	{id: "002-normal-64K_get-r2", variant: "normal", repeat: 2, status: "ok", base: 12, step: 0.05, n: 1600},
	{id: "003-a&b<i>-64K_get-r1", variant: "a&b<i>", repeat: 1, status: "ok", base: 5, step: 0.02, n: 3000},
	{id: "004-a&b<i>-64K_get-r2", variant: "a&b<i>", repeat: 2, status: "ok", base: 6, step: 0.02, n: 2600},
	{id: "005-broken-64K_get-r1", variant: "broken", repeat: 1, status: "failed",
		err: "health: stor1: object-server did not answer | exit 1", noStreams: true},
}

const fixDuration = 10 * time.Second

// recording builds a cell's recording and its interval counts: the
// values go into two agents, two intervals each.
func (f fixCell) recordings() [2][2]results.Recording {
	var out [2][2]results.Recording
	for a := range 2 {
		for iv := range 2 {
			out[a][iv] = results.Recording{"GET": results.NewOpHists()}
		}
	}
	for k := range f.n {
		d := time.Duration((f.base + f.step*float64(k)) * float64(time.Millisecond))
		h := out[k%2][(k/2)%2]["GET"]
		h.FirstByte.Record(d)
		h.LastByte.Record(d + time.Millisecond)
	}
	out[1][1]["GET"].Errors["http_503"] = 3
	return out
}

// cell returns the cell's summary, computed by results.Summarise from the
// same values the streams hold.
func (f fixCell) cell() results.Cell {
	c := results.Cell{Ops: map[string]results.OpSummary{}}
	if f.status == "ok" {
		all := results.Recording{}
		for _, ag := range f.recordings() {
			for _, iv := range ag {
				all.Merge(iv)
			}
		}
		c = results.Summarise(all, fixDuration)
		c.PerSecond = []int64{int64(f.n / 2), int64(f.n / 2)}
	}
	c.ID, c.Variant, c.Workload, c.Repeat, c.Status, c.Error = f.id, f.variant, "64K_get", f.repeat, f.status, f.err
	if f.mbps != nil {
		c.Ops, c.Total, c.PerSecond = map[string]results.OpSummary{}, results.OpSummary{}, nil
		m := results.Figure{Unit: "MB/s", PerCopy: f.mbps, How: "sum"}
		for _, x := range f.mbps {
			m.Value += x
		}
		c.Metrics = map[string]results.Figure{"throughput": m}
	}
	return c
}

// writeStreams writes the cell's agents' streams with load's own writer
// and events, as the sweep keeps them.
func (f fixCell) writeStreams(t *testing.T, dir string) {
	t.Helper()
	start := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	for a, ivs := range f.recordings() {
		p := filepath.Join(dir, rundir.AgentsDir, "agent-"+string(rune('0'+a))+"-client1.jsonl")
		mkdir(t, filepath.Dir(p))
		fh, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w := results.NewLineWriter(fh)
		w.Put(results.AgentEvent{Type: "ready", Agent: f.id, Clock: start})
		for i, rec := range ivs {
			s := start.Add(time.Duration(i) * time.Second)
			w.Put(results.AgentEvent{Type: "interval", Agent: f.id, Index: i, Start: s, End: s.Add(time.Second), Ops: rec})
		}
		w.Put(results.AgentEvent{Type: "done", Agent: f.id, Duration: fixDuration.Seconds()})
		if err := w.Err(); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o750); err != nil {
		t.Fatal(err)
	}
}

func writeJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, b, 0o640); err != nil {
		t.Fatal(err)
	}
}

// makeRun writes a run directory of cells; with summary false it is a
// killed run (cells' cell.json only). It returns the directory and the
// summary the cells make.
func makeRun(t *testing.T, cells []fixCell, summary bool) (string, results.Summary) {
	t.Helper()
	run, err := rundir.NewRun(t.TempDir(), hostile, time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	sum := results.Summary{Run: run.ID, Testbed: hostile}
	for _, f := range cells {
		c := f.cell()
		sum.Cells = append(sum.Cells, c)
		cdir, err := run.CellDir(f.id)
		if err != nil {
			t.Fatal(err)
		}
		if f.telemetry > 0 {
			c.Telemetry = writeTelemetry(t, run, f.id, fixTelemetry(t, f.telemetry))
			sum.Cells[len(sum.Cells)-1] = c
		}
		writeJSON(t, filepath.Join(cdir, rundir.CellFile), c)
		if !f.noStreams {
			f.writeStreams(t, cdir)
		}
	}
	if summary {
		writeJSON(t, filepath.Join(run.Dir, rundir.SummaryFile), sum)
	}
	if err := run.WriteFile(rundir.TestbedFile, []byte("testbed \""+hostile+"\" {}\nvariable \"k\" {\n  default = \""+secret+"\"\n  sensitive = true\n}\n")); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(run.Dir, rundir.SweepFile), map[string]any{"testbed": "/x/lab.hcl", "name": hostile, "started": run.Started})
	env := "## kernel\nLinux stor1 6.1.0 x86_64\n\n## cpu\n24\n\n## memory\nMemTotal: 65536000 kB\n\n## swift\nswift 2.30.1\n"
	if err := run.WriteFile("env/stor1.txt", []byte(env)); err != nil {
		t.Fatal(err)
	}
	j, err := run.OpenJournal()
	if err != nil {
		t.Fatal(err)
	}
	t0 := run.Started
	for _, e := range []rundir.Entry{
		{Time: t0, Step: "preflight", Status: rundir.StepStarted},
		{Time: t0.Add(1500 * time.Millisecond), Step: "preflight", Status: rundir.StepOK, Detail: "1.5 s"},
		{Time: t0.Add(2 * time.Second), Step: "run", Cell: cells[0].id, Status: rundir.StepStarted},
		{Time: t0.Add(12 * time.Second), Step: "run", Cell: cells[0].id, Status: rundir.StepOK},
		{Time: t0.Add(13 * time.Second), Step: "restart", Cell: cells[len(cells)-1].id, Host: "stor1", Status: rundir.StepStarted},
		{Time: t0.Add(16 * time.Second), Step: "restart", Cell: cells[len(cells)-1].id, Host: "stor1",
			Status: rundir.StepFailed, Detail: "object-server <did not> start"},
	} {
		if err := j.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return run.Dir, sum
}
