package results

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Cell statuses.
const (
	StatusOK          = "ok"          // ran, and within its error-rate gate
	StatusFailed      = "failed"      // a step failed, or the error-rate gate did
	StatusInterrupted = "interrupted" // stopped by an interrupt
)

// OK reports whether c finished within its error-rate gate (StatusOK):
// the one test of a cell's status that its tables, aggregates, verdicts
// and comparisons make.
func (c *Cell) OK() bool { return c.Status == StatusOK }

// ErrorRate is the share of an operation summary's operations that failed
// (0 when there were none).
func (o OpSummary) ErrorRate() float64 {
	if n := o.Count + o.Errors; n > 0 {
		return float64(o.Errors) / float64(n)
	}
	return 0
}

// GateError is the error-rate gate's verdict on a cell.
type GateError struct {
	Phase     string  // a fault cell's phase the gate failed in ("" for the whole cell)
	Rate, Max float64 // the cell's error rate and the gate's
	Errors    int64   // failed operations
	Ops       int64   // operations in all
	Causes    string  // the top causes (TopCauses)
	Corrupt   int64   // reads whose body differed from what was written, when that is the verdict
}

// Error says what failed, how often and why.
func (e *GateError) Error() string {
	in := ""
	if e.Phase != "" {
		in = "the " + e.Phase + " phase's "
	}
	if e.Corrupt > 0 {
		return fmt.Sprintf("%s%d reads returned data that differs from what was written (corrupt; a fault's errors are data, wrong data never is); top causes: %s",
			in, e.Corrupt, e.Causes)
	}
	return in + fmt.Sprintf("error rate %s (%d of %d operations failed) is above max_error_rate %s; top causes: %s",
		Percent(e.Rate), e.Errors, e.Ops, Percent(e.Max), e.Causes)
}

// Gate checks c's total against maxRate: when more of its operations
// failed than that, c is marked failed with the verdict in c.Error, and the
// verdict is returned. A cell already not ok keeps its own status and error.
func Gate(c *Cell, maxRate float64) *GateError {
	rate := c.Total.ErrorRate()
	if c.Total.Errors == 0 || rate <= maxRate {
		return nil
	}
	g := &GateError{Rate: rate, Max: maxRate, Errors: c.Total.Errors, Ops: c.Total.Count + c.Total.Errors,
		Causes: TopCauses(*c, 3)}
	if c.OK() || c.Status == "" {
		c.Status, c.Error = StatusFailed, g.Error()
	}
	return g
}

// TopCauses lists the n most frequent causes of c's failed operations, as
// "http_404=115 (GET 104, DELETE 11)", most frequent first.
func TopCauses(c Cell, n int) string {
	causes := c.Total.ErrorsBy
	keys := slices.Collect(maps.Keys(causes))
	slices.SortFunc(keys, func(a, b string) int {
		if causes[a] != causes[b] {
			return int(causes[b] - causes[a])
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for i, k := range keys {
		if i == n {
			parts = append(parts, fmt.Sprintf("%d more", len(keys)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s=%d%s", k, causes[k], byOp(c, k)))
	}
	return strings.Join(parts, ", ")
}

// byOp says how one cause splits over the operation types, when several.
func byOp(c Cell, cause string) string {
	var parts []string
	for _, op := range slices.Sorted(maps.Keys(c.Ops)) {
		if n := c.Ops[op].ErrorsBy[cause]; n > 0 {
			parts = append(parts, op+" "+strconv.FormatInt(n, 10))
		}
	}
	if len(parts) < 2 {
		if len(parts) == 1 {
			return " (" + strings.SplitN(parts[0], " ", 2)[0] + ")"
		}
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// Percent renders a share as a percentage: "1%", "0.5%", "23.4%".
func Percent(x float64) string {
	s := strconv.FormatFloat(x*100, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}
