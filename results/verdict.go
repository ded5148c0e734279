package results

import (
	"fmt"
	"strings"
)

// A verdict says of one metric of a variant against the baseline whether
// it is better, worse, no different or not decided, with a 95 %
// confidence interval of the change. Its samples are a value per repeat
// of each side when both have repeats, else a value per batch of each
// side's per-second series (batch means: near-independent, but they see
// no drift between runs, so the weaker evidence).

// Evidence kinds of a Change: what its samples are.
const (
	EvidenceRepeats = "repeats"     // a value per repeat of each side
	EvidenceBatches = "batch means" // a value per batch of seconds of one run a side
	EvidenceNone    = "none"        // too few samples: no interval
)

// Words of a Change.
const (
	WordBetter       = "better"
	WordWorse        = "worse"
	WordNoDifference = "no difference"
	WordUndecided    = "not decided"
)

// Intervals a Change may carry.
const (
	IntervalWelch     = "t"         // Welch's t interval of the difference of the means
	IntervalBootstrap = "bootstrap" // percentile bootstrap of the ratio of the means, seeded
	IntervalPaired    = "paired t"  // t interval of the mean of the rounds' differences
)

// DefaultMargin is the equivalence margin: a change whose whole 95 %
// interval lies within ±2 % of the baseline is "no difference".
const DefaultMargin = 0.02

// MinBootstrap is the fewest samples a side needs for a percentile's
// bootstrap interval; with fewer a percentile gets Welch's t interval
// (a bootstrap of 3 repeats has 10 distinct resamples and is too narrow).
const MinBootstrap = 8

// Samples is one side's values of one metric: per repeat or per batch.
type Samples struct {
	Kind   string    `json:"kind"` // EvidenceRepeats or EvidenceBatches
	Values []float64 `json:"-"`
	// Rounds is each value's round (its repeat's number) when the sweep
	// interleaved its repeats, so that the baseline's and the variant's of
	// one round ran minutes apart and Decide pairs them; nil otherwise.
	Rounds []int `json:"-"`
	// Why says why there are too few values ("one run of 8 s: too short
	// for 10 batches"); "" when there are enough. Reason says it in a few
	// words ("run too short").
	Why    string `json:"why,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Change is one metric of a variant against the baseline: the change of
// the samples' means, its interval and its word.
type Change struct {
	Metric string `json:"metric"` // "req/s", "first_byte_p99", "last_byte_p99", ...
	// Phase is the fault cell's phase the change is of (PhaseDuring...),
	// "" for a whole run's.
	Phase     string  `json:"phase,omitempty"`
	Base      float64 `json:"base"`  // the baseline's mean of its samples
	Value     float64 `json:"value"` // the variant's
	DeltaPct  float64 `json:"delta_pct"`
	LowPct    float64 `json:"low_pct"` // the 95 % interval of DeltaPct (0 and 0 without one)
	HighPct   float64 `json:"high_pct"`
	Interval  string  `json:"interval,omitempty"` // IntervalWelch or IntervalBootstrap
	Evidence  string  `json:"evidence"`           // Evidence*
	N1        int     `json:"n1"`                 // samples of each side
	N2        int     `json:"n2"`
	MarginPct float64 `json:"margin_pct"` // the equivalence margin, ±
	Word      string  `json:"word"`       // Word*
	Why       string  `json:"why"`
	// Reason says in a few words why it is not decided ("too noisy",
	// "too few repeats", "run too short"); "" when it is.
	Reason string `json:"reason,omitempty"`
}

// VerdictOptions tunes Decide.
type VerdictOptions struct {
	Margin    float64 // the equivalence margin as a share (0: DefaultMargin)
	Resamples int     // bootstrap resamples (0: 2000)
	Seed      uint64  // the bootstrap's seed, so a run always gets one verdict
}

// HigherIsBetter reports whether a rise of metric is an improvement:
// throughput and capacity; latencies are better lower.
func HigherIsBetter(metric string) bool {
	return metric == "req/s" || metric == "capacity"
}

// IsPercentile reports whether metric is a latency percentile.
func IsPercentile(metric string) bool {
	return !HigherIsBetter(metric)
}

// Decide compares the variant's samples b with the baseline's a.
func Decide(metric string, a, b Samples, o VerdictOptions) Change {
	if o.Margin <= 0 {
		o.Margin = DefaultMargin
	}
	c := Change{Metric: metric, Evidence: a.Kind, N1: len(a.Values), N2: len(b.Values), MarginPct: o.Margin * 100}
	c.Base, _ = meanSD(orZero(a.Values))
	c.Value, _ = meanSD(orZero(b.Values))
	if c.Base != 0 {
		c.DeltaPct = (c.Value/c.Base - 1) * 100
	}
	if reason, why := tooFew(a, b); why != "" {
		c.Evidence, c.Word, c.Why, c.Reason = EvidenceNone, WordUndecided, why, reason
		return c
	}
	c.Interval = IntervalWelch
	if d, ok := pairedDiffs(a, b); ok {
		c.Interval = IntervalPaired
		c.LowPct, c.HighPct = pairedRelative(d, c.Base)
	} else if IsPercentile(metric) && c.N1 >= MinBootstrap && c.N2 >= MinBootstrap {
		c.Interval = IntervalBootstrap
		c.LowPct, c.HighPct = bootstrapRatio(a.Values, b.Values, o, metric)
	} else {
		c.LowPct, c.HighPct = welchRelative(a.Values, b.Values)
	}
	c.Word, c.Why = word(c, HigherIsBetter(metric))
	if c.Word == WordUndecided {
		c.Reason, _, _ = strings.Cut(c.Why, " (")
		c.Reason, _, _ = strings.Cut(c.Reason, ":")
	}
	return c
}

// orZero keeps meanSD from dividing by 0.
func orZero(xs []float64) []float64 {
	if len(xs) == 0 {
		return []float64{0}
	}
	return xs
}

// tooFew says briefly and in full why two sides' samples give no
// interval; "" when they do.
func tooFew(a, b Samples) (string, string) {
	for _, s := range []Samples{a, b} {
		if s.Why != "" {
			return s.Reason, s.Why
		}
	}
	switch {
	case a.Kind != b.Kind:
		return "not comparable", "one side has repeats, the other one run: not comparable samples"
	case len(a.Values) < 2 || len(b.Values) < 2:
		return "too few samples", fmt.Sprintf("too few samples (%s: %d and %d)", a.Kind, len(a.Values), len(b.Values))
	case meanOf(a.Values) == 0:
		return "baseline 0", "the baseline's figure is 0"
	}
	return "", ""
}

func meanOf(xs []float64) float64 { m, _ := meanSD(xs); return m }

// word judges the interval: within the margin, no difference; clear of
// 0, better or worse; otherwise not decided, and why.
func word(c Change, higherBetter bool) (string, string) {
	m := c.MarginPct
	how := fmt.Sprintf("%s, %s interval over %d+%d %s", pctRange(c.LowPct, c.HighPct), c.Interval, c.N1, c.N2, c.Evidence)
	if c.Evidence == EvidenceBatches {
		how += "; one run a side: weaker evidence, drift between runs unseen"
	}
	up, down := c.LowPct > 0, c.HighPct < 0
	switch {
	case c.LowPct >= -m && c.HighPct <= m:
		return WordNoDifference, fmt.Sprintf("within ±%g%%: %s", m, how)
	case up && higherBetter || down && !higherBetter:
		return WordBetter, how
	case up || down:
		return WordWorse, how
	}
	why := fmt.Sprintf("too noisy: %s crosses 0 and leaves the ±%g%% margin", how, m)
	if c.Evidence == EvidenceRepeats && min(c.N1, c.N2) < 5 {
		why = fmt.Sprintf("too few repeats (%d and %d): %s", c.N1, c.N2, why)
	}
	return WordUndecided, why
}

// pctRange writes an interval of changes: "[-3.1%, +4.0%]".
func pctRange(lo, hi float64) string {
	return fmt.Sprintf("[%+.1f%%, %+.1f%%]", lo, hi)
}

// Significant reports whether the interval excludes no change.
func (c Change) Significant() bool {
	return c.Evidence != EvidenceNone && (c.LowPct > 0 || c.HighPct < 0)
}

// Short writes the change for a table: "+4.1% [+2.0, +6.2]" or "+4.1% [?]"
// when there is no interval.
func (c Change) Short() string {
	if c.Evidence == EvidenceNone {
		if c.Base == 0 {
			return "?"
		}
		return fmt.Sprintf("%+.1f%% [?]", c.DeltaPct)
	}
	return fmt.Sprintf("%+.1f%% [%+.1f, %+.1f]", c.DeltaPct, c.LowPct, c.HighPct)
}

// By names the test behind the interval: "Welch's t over 5+5 repeats",
// "bootstrap over 10+10 batch means (one run a side)"; "" without one.
func (c Change) By() string {
	if c.Evidence == EvidenceNone {
		return ""
	}
	how := "Welch's t"
	switch c.Interval {
	case IntervalBootstrap:
		how = "bootstrap"
	case IntervalPaired:
		return fmt.Sprintf("paired t over %d interleaved rounds of repeats", c.N1)
	}
	s := fmt.Sprintf("%s over %d+%d %s", how, c.N1, c.N2, c.Evidence)
	if c.Evidence == EvidenceBatches {
		s += " (one run a side)"
	}
	return s
}
