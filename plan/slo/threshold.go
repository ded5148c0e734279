package slo

import (
	"fmt"
	"strconv"
	"strings"
)

// ThresholdMetrics are the metrics a threshold (a regression gate) can
// watch: compare's figures of a pair of cells.
var ThresholdMetrics = []string{"req/s", "capacity", "first_byte_p50", "first_byte_p99", "last_byte_p50", "last_byte_p99"}

// Threshold is one regression gate: the relative change of Metric from a
// baseline to a candidate beyond Change in the Op direction fails, when
// the change is also significant ("req/s < -5%": req/s fell more than
// 5 %; "first_byte_p99 > +10%": p99 grew more than 10 %).
type Threshold struct {
	Metric string  `json:"metric"`
	Op     string  `json:"op"`     // "<" or ">"
	Change float64 `json:"change"` // a signed share: -0.05 is -5 %
}

// ParseThreshold reads `--fail-if 'req/s < -5%'`.
func ParseThreshold(s string) (Threshold, error) {
	i := strings.IndexAny(s, "<>")
	if i < 0 {
		return Threshold{}, fmt.Errorf("threshold %q: want METRIC < CHANGE or METRIC > CHANGE, as 'req/s < -5%%'", s)
	}
	return NewThreshold(strings.TrimSpace(s[:i]), s[i:i+1], strings.TrimSpace(s[i+1:]))
}

// NewThreshold checks a threshold's parts: a metric of ThresholdMetrics,
// "<" or ">", and a signed percentage ("-5%", "+10%").
func NewThreshold(metric, op, change string) (Threshold, error) {
	known := false
	for _, m := range ThresholdMetrics {
		known = known || m == metric
	}
	if !known {
		return Threshold{}, fmt.Errorf("threshold metric %q: want one of %s", metric, strings.Join(ThresholdMetrics, ", "))
	}
	if op != "<" && op != ">" {
		return Threshold{}, fmt.Errorf("threshold op %q: want < or >", op)
	}
	num, ok := strings.CutSuffix(change, "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if !ok || err != nil || x != x || x < -100 || x > 1e6 {
		return Threshold{}, fmt.Errorf("threshold change %q: want a relative change in percent, as -5%% or +10%%", change)
	}
	return Threshold{Metric: metric, Op: op, Change: x / 100}, nil
}

// Beyond reports whether a change of deltaPct percent is past the threshold.
func (t Threshold) Beyond(deltaPct float64) bool {
	if t.Op == "<" {
		return deltaPct < t.Change*100
	}
	return deltaPct > t.Change*100
}

// String writes the threshold as ParseThreshold reads it: "req/s < -5%".
func (t Threshold) String() string {
	return fmt.Sprintf("%s %s %+g%%", t.Metric, t.Op, t.Change*100)
}
