package results

import (
	"fmt"
	"io"
	"strconv"
)

// RepeatRow is one line of the table of a sweep with repeats: a (variant,
// workload) pair and the totals of its repeats that finished ("ok"), with
// how many did not.
type RepeatRow struct {
	Label  string
	Runs   []OpSummary // the finished repeats' totals, in repeat order
	Failed int         // repeats that did not finish (failed, interrupted)
}

// Add counts one repeat: its total when it finished ("ok"), else a failure.
func (r *RepeatRow) Add(c Cell) {
	if c.OK() {
		r.Runs = append(r.Runs, c.Total)
	} else {
		r.Failed++
	}
}

// RepeatStats is what a RepeatRow's figures come to.
type RepeatStats struct {
	N         int     // finished repeats
	ReqPerS   float64 // mean req/s over the finished repeats
	ReqStdDev float64 // sample standard deviation of req/s (0 when N < 2)
	ReqMin    float64
	ReqMax    float64
	FirstByte Stats // each time-to-first-byte statistic averaged over the repeats
	Errors    int64 // summed over every finished repeat
}

// Stats averages the row's repeats: req/s mean, sample stddev, min and max;
// each latency statistic is the mean of the repeats' values (not a merge of
// their histograms: a repeat's p95 is weighted like any other's, whatever
// its request count).
func (r RepeatRow) Stats() RepeatStats {
	s := RepeatStats{N: len(r.Runs)}
	if s.N == 0 {
		return s
	}
	req := make([]float64, 0, s.N)
	fb := make([]Stats, 0, s.N)
	for _, o := range r.Runs {
		req = append(req, o.ReqPerS)
		fb = append(fb, o.FirstByte)
		s.Errors += o.Errors
	}
	sp := NewSpread(req)
	s.ReqPerS, s.ReqStdDev, s.ReqMin, s.ReqMax = sp.Mean, sp.StdDev, sp.Min, sp.Max
	s.FirstByte = MeanStats(fb)
	return s
}

// RepeatLegend says how WriteRepeatTable's figures are computed; it is
// printed under the table.
const RepeatLegend = "n: finished repeats (of all); req/s: mean over the repeats, ± sample standard deviation, " +
	"min..max; min, max, avg, stddev and 95th %ile: time-to-first-byte in seconds, each the mean of " +
	"the repeats' values (not merged histograms); errors: summed over the repeats. req/s and latency count " +
	"only the operations that succeeded; a repeat that failed (a step, or its error-rate gate) is not in n."

// WriteRepeatTable renders seed 003's table as markdown, one row per
// (variant, workload) averaged over its repeats, followed by RepeatLegend.
// title heads the first column.
func WriteRepeatTable(w io.Writer, title string, rows []RepeatRow) error {
	t := markdownTable(w)
	t.Header(title, "n", "min", "max", "avg", "stddev", "95th %ile", "req/s", "± sd", "min..max", "errors")
	for _, r := range rows {
		s := r.Stats()
		fb := s.FirstByte
		cells := []string{r.Label, fmt.Sprintf("%d/%d", s.N, s.N+r.Failed), "-", "-", "-", "-", "-", "-", "-", "-", "-"}
		if s.N > 0 {
			cells = []string{r.Label, cells[1], sec(fb.Min), sec(fb.Max), sec(fb.Mean), sec(fb.StdDev), sec(fb.P95),
				rate(s.ReqPerS), rate(s.ReqStdDev), rate(s.ReqMin) + ".." + rate(s.ReqMax),
				strconv.FormatInt(s.Errors, 10)}
		}
		if err := t.Append(cells); err != nil {
			return fmt.Errorf("table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	_, err := fmt.Fprintf(w, "\n%s\n", RepeatLegend)
	return err
}

func rate(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
