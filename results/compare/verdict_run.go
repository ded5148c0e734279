package compare

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"benchbed/results"
	"benchbed/results/rundir"
)

// RunVerdict is one run's verdict: each variant against the baseline on
// each workload they share, and the caveats that decide how to read it,
// each said once.
type RunVerdict struct {
	Baseline string         `json:"baseline"` // the baseline variant
	Blocks   []VerdictBlock `json:"variants"`
	Caveats  []string       `json:"caveats,omitempty"`
}

// VerdictOfRun decides every variant of r against baseline (the run's
// first variant when ""), workload by workload.
func VerdictOfRun(r *rundir.RunResults, baseline string, o CompareOptions) (*RunVerdict, error) {
	gs := runGroups(r)
	if len(gs) == 0 {
		return nil, fmt.Errorf("run %s has no cells", r.Summary.Run)
	}
	if baseline == "" {
		baseline = gs[0].variant
	}
	if !slices.ContainsFunc(gs, func(g *group) bool { return g.variant == baseline }) {
		return nil, fmt.Errorf("--baseline %q: no such variant in run %s", baseline, r.Summary.Run)
	}
	v := &RunVerdict{Baseline: baseline}
	short, phaseShort := false, false
	for _, g := range gs {
		base := findGroup(gs, baseline, g.workload)
		if g.variant == baseline || base == nil {
			continue
		}
		p := comparePair(base, g, o)
		v.Blocks = append(v.Blocks, NewVerdictBlock(&p))
		for _, rt := range p.Conf.Retired() {
			v.Caveats = appendOnce(v.Caveats, "retired option: "+g.variant+" sets "+rt)
		}
		short = short || slices.ContainsFunc(p.Verdict, func(c results.Change) bool { return c.Reason == "run too short" })
		phaseShort = phaseShort || slices.ContainsFunc(p.Verdict, func(c results.Change) bool { return c.Reason == reasonPhaseShort })
	}
	v.Caveats = append(v.Caveats, cellCaveats(r.Summary.Cells, short)...)
	if phaseShort {
		v.Caveats = append(v.Caveats, "fault phases: fault cells are decided phase by phase (before, during, after the fault), "+
			"and a phase whose seconds give fewer than 5 near-independent batches (short, or still ramping up) is not decided; "+
			"run longer phases or repeat the cells")
	}
	return v, nil
}

// cellCaveats collects the run's caveats from its cells: the page cache,
// failed cells, failed operations, one run a variant, runs too short.
func cellCaveats(cells []results.Cell, short bool) []string {
	var out, failed []string
	repeats, errs := 0, 0
	if pc := pageCacheCaveat(cells); pc != "" {
		out = append(out, pc)
	}
	for _, c := range cells {
		if !c.OK() {
			failed = append(failed, cellName(&c))
		}
		if c.Total.Errors > 0 {
			errs++
		}
		repeats = max(repeats, c.Repeat)
	}
	if len(failed) > 0 {
		out = append(out, fmt.Sprintf("%d cell(s) failed (no verdict on them): %s", len(failed), strings.Join(failed, ", ")))
	}
	if errs > 0 {
		out = append(out, fmt.Sprintf("%d cell(s) had failed operations (the errors table says which)", errs))
	}
	if repeats <= 1 {
		out = append(out, "one run a variant: the verdicts rest on batch means of each run's seconds, weaker evidence "+
			"than repeats (drift between runs unseen; sweep repeat = N or \"auto\")")
	}
	if short {
		out = append(out, "a run too short to decide: fewer seconds than 5 near-independent batches need")
	}
	return out
}

func appendOnce(xs []string, s string) []string {
	if slices.Contains(xs, s) {
		return xs
	}
	return append(xs, s)
}

// Write writes the caveats, then the verdict blocks, within width columns
// (0: DefaultWidth).
func (v *RunVerdict) Write(w io.Writer, width int) error {
	if width <= 0 {
		width = DefaultWidth
	}
	var b strings.Builder
	for _, c := range v.Caveats {
		wrap(&b, width, "CAVEAT: "+c, "  ")
	}
	if len(v.Caveats) > 0 {
		b.WriteString("\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if len(v.Blocks) == 0 {
		_, err := fmt.Fprintf(w, "verdict: only the baseline %s ran: nothing to compare\n", v.Baseline)
		return err
	}
	return WriteVerdictBlocks(w, v.Baseline, v.Blocks, width)
}

// wrap writes s in lines of at most width columns at spaces, the later
// ones indented.
func wrap(b *strings.Builder, width int, s, indent string) {
	cur := ""
	for _, w := range strings.Fields(s) {
		if cur != "" && len([]rune(cur))+1+len([]rune(w)) > width {
			line(b, width, cur)
			cur = indent + w
			continue
		}
		if cur != "" && cur != indent {
			cur += " "
		}
		cur += w
	}
	line(b, width, cur)
}

// pageCacheCaveat is the page cache's caveat said once for the run: a
// cell's own warning when one cell has it, else the working sets' and
// caches' ranges over the cells that have it; "" when none has.
func pageCacheCaveat(cells []results.Cell) string {
	var ws, cache []float64
	one := ""
	for _, c := range cells {
		if t := c.Telemetry; t != nil && t.PageCache != nil && t.PageCache.Warning != "" {
			ws, cache, one = append(ws, t.PageCache.WorkingSetMB), append(cache, t.PageCache.CacheMB), t.PageCache.Warning
		}
	}
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return "page cache: " + one
	}
	return fmt.Sprintf("page cache: in %d of %d cells the GETs' working set (%s MB) fits in the object hosts' page cache (%s MB): "+
		"reads measure memory, not disks; set telemetry { drop_caches = true } to drop caches before each cell",
		len(ws), len(cells), mbRange(ws), mbRange(cache))
}

// mbRange is "125" or "44911 to 45884".
func mbRange(xs []float64) string {
	lo, hi := slices.Min(xs), slices.Max(xs)
	if fmt.Sprintf("%.0f", lo) == fmt.Sprintf("%.0f", hi) {
		return fmt.Sprintf("%.0f", lo)
	}
	return fmt.Sprintf("%.0f to %.0f", lo, hi)
}
