package report

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"benchbed/results"
	"benchbed/results/compare"
	"benchbed/results/rundir"
)

// Report is a run directory read back, with what the outputs need beside
// the summary: the testbed as used, the hosts' environment, the journal's
// steps and the aggregates over repeats.
type Report struct {
	Run *rundir.RunResults
	// TestbedFile is the path of testbed.hcl as used, "" when absent. Its
	// text is never read: the file may hold sensitive variables' defaults.
	TestbedFile string
	// TestbedFiles are the files the sweep read the testbed from
	// (sweep.json's), nil when the run does not say.
	TestbedFiles []string
	Started      time.Time            // when the run began (zero when unknown)
	Ended        time.Time            // the journal's last entry (zero when unknown)
	Env          []rundir.HostEnv     // env/<host>.txt, by host name
	Steps        []rundir.JournalStep // the journal's steps with their durations
	Repeats      []RepeatGroup
	// Notices are what a reader must know (a partial run, a failed
	// cell's missing streams); Problems make the report incomplete (an
	// ok cell without agents' streams, a broken stream) and the command
	// exit 1.
	Notices  []string
	Problems []string
	// Verdict is each variant against the baseline, and the run's
	// caveats: what the text and the page show first (nil when it could
	// not be decided; a notice says why).
	Verdict *compare.RunVerdict
	// Width is the columns the text keeps its verdict within (0: 120).
	Width int
}

// Load reads the run in dir. A missing directory, a summary or cell.json
// that is not JSON, or an unreadable journal is an error naming the file.
func Load(dir string) (*Report, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	rr, err := rundir.ReadRun(abs)
	if err != nil {
		return nil, err
	}
	r := &Report{Run: rr}
	if rr.Partial {
		r.Notices = append(r.Notices, fmt.Sprintf("partial run: no %s (the sweep was killed or is still running); "+
			"only the %d cell(s) that finished are reported", rundir.SummaryFile, len(rr.Summary.Cells)))
	}
	if _, err := os.Stat(filepath.Join(abs, rundir.TestbedFile)); err == nil {
		r.TestbedFile = filepath.Join(abs, rundir.TestbedFile)
	}
	if r.Env, err = rundir.ReadEnv(abs); err != nil {
		return nil, err
	}
	if err := r.readJournal(abs); err != nil {
		return nil, err
	}
	r.Repeats = Repeats(rr.Summary.Cells)
	if err := r.Rebase(""); err != nil {
		r.Notices = append(r.Notices, "no verdict: "+err.Error())
	}
	for _, c := range rr.Summary.Cells {
		if !c.OK() && c.Error == "" {
			r.Notices = append(r.Notices, fmt.Sprintf("cell %s: status %s without an error message", cellName(c), c.Status))
		}
	}
	return r, nil
}

// Rebase decides the verdict against variant baseline (the run's first
// variant when ""), its caveats with the hosts that share a kernel.
func (r *Report) Rebase(baseline string) error {
	v, err := compare.VerdictOfRun(r.Run, baseline, compare.CompareOptions{})
	if err != nil {
		return err
	}
	v.Caveats = append(v.Caveats, r.hostCaveats()...)
	r.Verdict = v
	return nil
}

// readJournal fills Steps, Started and Ended from the journal, and Started
// from sweep.json or the run id when the journal has none.
func (r *Report) readJournal(dir string) error {
	run, err := rundir.Open(dir, r.Run.Summary.Testbed)
	if err != nil {
		return err
	}
	entries, err := run.ReadJournal()
	if err != nil {
		return err
	}
	r.Steps = rundir.PairSteps(entries)
	if len(entries) > 0 {
		r.Started, r.Ended = entries[0].Time, entries[len(entries)-1].Time
	}
	si, err := rundir.ReadSweepInfo(dir)
	if err != nil { // it only names and dates the report
		si = &rundir.SweepInfo{}
	}
	if r.Started.IsZero() {
		r.Started = si.Started
	}
	r.TestbedFiles = si.Files
	if r.Run.Summary.Testbed == "" { // a partial run: no summary to name it
		r.Run.Summary.Testbed = si.Name
	}
	if r.Started.IsZero() {
		r.Started = run.Started
	}
	return nil
}

// Title is the report's heading: the testbed and the run id.
func (r *Report) Title() string {
	s := r.Run.Summary
	t := "benchbed report: " + s.Run
	if s.Testbed != "" {
		t = "benchbed report: " + s.Testbed + ", run " + s.Run
	}
	if r.Run.Partial {
		t += " (partial)"
	}
	return t
}

// cellName is how a cell is named in tables and plots: its id, or for a
// summary older than ids its variant, workload and repeat.
func cellName(c results.Cell) string {
	if c.ID != "" {
		return c.ID
	}
	n := c.Workload
	if c.Variant != "" {
		n = c.Variant + " " + n
	}
	if c.Repeat > 0 {
		n += fmt.Sprintf(" r%d", c.Repeat)
	}
	return n
}

// Failed returns the cells whose status is not "ok", in order.
func (r *Report) Failed() []results.Cell {
	var out []results.Cell
	for _, c := range r.Run.Summary.Cells {
		if !c.OK() {
			out = append(out, c)
		}
	}
	return out
}
