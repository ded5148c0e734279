package compare

import (
	"fmt"
	"io"
	"strings"

	"benchbed/plan/slo"
	"benchbed/results"
)

// Verdict is one regression gate (a threshold) on one pair: the change of
// its metric from A (the baseline) to B, and whether it fails the gate:
// beyond the threshold and significant by the pair's U test.
type Verdict struct {
	Threshold   slo.Threshold `json:"threshold"`
	Pair        string        `json:"pair"` // "variant / workload" of B
	Op          string        `json:"op"`
	A           float64       `json:"a"`
	B           float64       `json:"b"`
	DeltaPct    *float64      `json:"delta_pct,omitempty"`
	Test        *Test         `json:"test,omitempty"`
	Beyond      bool          `json:"beyond"`      // the change is past the threshold
	Significant bool          `json:"significant"` // and its test says it is no chance
	Failed      bool          `json:"failed"`
	// Undecided says that the change is beyond the threshold but has no
	// interval to test it by (Change.Why says why): not failed, printed so.
	Undecided bool `json:"undecided,omitempty"`
	// Change is the pair's verdict on the metric, whose 95 % interval
	// decides the gate; nil for capacity, which the U test decides.
	Change *results.Change `json:"change,omitempty"`
	// DecidedBy names the test: "Welch's t over 5+5 repeats", "bootstrap
	// over 10+10 batch means of one run a side", "U test over repeats".
	DecidedBy string `json:"decided_by,omitempty"`
	Why       string `json:"why"`
}

// thresholdMetric is compare's name of a threshold's metric.
func thresholdMetric(m string) string {
	switch m {
	case MetricReqPerS:
		return m
	case "capacity":
		return MetricCapacity
	}
	kind, q, _ := strings.Cut(m, "_p")
	return strings.ReplaceAll(kind, "_", "-") + " p" + q + " (s)"
}

// NeedsLastByte reports whether a threshold watches a last-byte latency
// (CompareOptions.LastByte must then be on).
func NeedsLastByte(ths []slo.Threshold) bool {
	for _, t := range ths {
		if strings.HasPrefix(t.Metric, "last_byte") {
			return true
		}
	}
	return false
}

// Gate evaluates each threshold on each pair of c that thresholds gives
// it for (by the pair's workload; nil: every threshold on every pair), on
// the pair's total (or its only operation type).
func Gate(c *Comparison, thresholds func(p *Pair) []slo.Threshold) []Verdict {
	var out []Verdict
	for i := range c.Pairs {
		p := &c.Pairs[i]
		for _, t := range thresholds(p) {
			out = append(out, verdict(p, t))
		}
	}
	return out
}

// All returns a thresholds function giving ths to every pair.
func All(ths []slo.Threshold) func(*Pair) []slo.Threshold {
	return func(*Pair) []slo.Threshold { return ths }
}

// verdict judges one threshold on one pair.
func verdict(p *Pair, t slo.Threshold) Verdict {
	v := Verdict{Threshold: t, Pair: p.B}
	if p.FailedA || p.FailedB {
		v.Failed, v.Why = true, "a side failed: no figures to compare"
		return v
	}
	oc := gateOp(p)
	if oc == nil {
		v.Why = "no operations to compare"
		return v
	}
	v.Op = oc.Op
	if chs := p.PhasesOf(t.Metric); len(chs) > 0 {
		return phasesVerdict(v, chs, t)
	}
	name := thresholdMetric(t.Metric)
	var m *Metric
	for i := range oc.Metrics {
		if oc.Metrics[i].Name == name {
			m = &oc.Metrics[i]
		}
	}
	if m == nil || m.DeltaPct == nil {
		v.Why = "not compared (" + name + " missing or 0 in A)"
		return v
	}
	v.A, v.B, v.DeltaPct, v.Test = m.A, m.B, m.DeltaPct, m.Test
	v.Beyond = t.Beyond(*m.DeltaPct)
	v.Significant = m.Test != nil && m.Test.Significant
	if m.Test != nil {
		v.DecidedBy = "U test over " + m.Test.Samples
	}
	change := fmt.Sprintf("%s %+.1f%%", t.Metric, *m.DeltaPct)
	switch {
	case !v.Beyond:
		v.Why = change + " within " + t.String()
	case m.Test == nil:
		v.Why = change + " beyond " + t.String() + ", but untested (" + p.Samples + " samples): not failed"
	case !v.Significant:
		v.Why = change + " beyond " + t.String() + ", not significant (" + m.Test.String() + "): not failed"
	default:
		v.Failed = true
		v.Why = change + " beyond " + t.String() + " and significant (" + m.Test.String() + ")"
	}
	return v
}

// gateOp is the operation a gate looks at: "total", else the only one.
func gateOp(p *Pair) *OpCompare {
	for i := range p.Ops {
		if p.Ops[i].Op == "total" {
			return &p.Ops[i]
		}
	}
	if len(p.Ops) == 1 {
		return &p.Ops[0]
	}
	return nil
}

// Failed reports whether any verdict failed.
func Failed(vs []Verdict) bool {
	for _, v := range vs {
		if v.Failed {
			return true
		}
	}
	return false
}

// WriteVerdicts prints each verdict on a line: "FAIL  normal / 64K_get:
// req/s -7.2% beyond req/s < -5% and significant (p=0.008 n=5)".
func WriteVerdicts(w io.Writer, vs []Verdict) error {
	var b strings.Builder
	if len(vs) > 0 {
		b.WriteString("\ngates:\n")
	}
	for _, v := range vs {
		mark := "ok  "
		switch {
		case v.Failed:
			mark = "FAIL"
		case v.Undecided:
			mark = "UNDECIDED"
		}
		fmt.Fprintf(&b, "  %s  %s: %s\n", mark, v.Pair, v.Why)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// changeVerdict judges a threshold by the pair's verdict on its metric:
// failed when the change is beyond it and its 95 % interval excludes 0.
func changeVerdict(v Verdict, ch *results.Change, t slo.Threshold) Verdict {
	d := ch.DeltaPct
	v.A, v.B, v.DeltaPct, v.Change, v.DecidedBy = ch.Base, ch.Value, &d, ch, ch.By()
	v.Beyond, v.Significant = t.Beyond(d), ch.Significant()
	change := fmt.Sprintf("%s %+.1f%%", t.Metric, d)
	if ch.Phase != "" {
		change = fmt.Sprintf("%s %s %+.1f%%", t.Metric, PhaseLabel(ch.Phase), d)
	}
	switch {
	case ch.Base == 0:
		v.DeltaPct, v.Why = nil, "not compared ("+t.Metric+" is 0 or missing in A)"
	case !v.Beyond:
		v.Why = change + " within " + t.String()
	case ch.Evidence == results.EvidenceNone:
		v.Undecided = true
		v.Why = change + " beyond " + t.String() + ", not decided: " + ch.Why + ": not failed"
	case !v.Significant:
		v.Why = fmt.Sprintf("%s beyond %s, but its 95%% interval [%+.1f%%, %+.1f%%] includes 0 (%s): not failed",
			change, t, ch.LowPct, ch.HighPct, v.DecidedBy)
	default:
		v.Failed = true
		v.Why = fmt.Sprintf("%s beyond %s and significant: 95%% interval [%+.1f%%, %+.1f%%] (%s)",
			change, t, ch.LowPct, ch.HighPct, v.DecidedBy)
	}
	return v
}

// phasesVerdict judges a threshold on each phase's change of a fault pair
// (one change of another pair): the first phase that fails it decides,
// else the first phase's verdict stands (during the fault).
func phasesVerdict(v Verdict, chs []*results.Change, t slo.Threshold) Verdict {
	first := changeVerdict(v, chs[0], t)
	if first.Failed {
		return first
	}
	for _, ch := range chs[1:] {
		if pv := changeVerdict(v, ch, t); pv.Failed {
			return pv
		}
	}
	return first
}
