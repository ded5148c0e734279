package results

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SLOErrors is the SLO metric of the share of failed operations; the
// testbed language also calls it max_error_rate.
const SLOErrors = "errors"

// SLOLimit is one bound of a service-level objective: Metric < Max.
// Metric is "errors" (Max a share) or a latency, "first_byte_p99" (Max in
// seconds): first_byte or last_byte, then p50, p95, p99, p999, mean or max.
type SLOLimit struct {
	Metric string  `json:"metric"`
	Max    float64 `json:"max"`
}

// SLO is a service-level objective: every limit must hold.
type SLO []SLOLimit

// ParseSLO reads limits as `benchbed load --search` takes them:
// "first_byte_p99<50ms,errors<0.1%".
func ParseSLO(s string) (SLO, error) {
	var slo SLO
	for part := range strings.SplitSeq(s, ",") {
		metric, value, ok := strings.Cut(part, "<")
		if !ok {
			return nil, fmt.Errorf("SLO %q: want METRIC<VALUE, as first_byte_p99<50ms or errors<0.1%%", part)
		}
		l, err := NewSLOLimit(strings.TrimSpace(metric), strings.TrimSpace(value))
		if err != nil {
			return nil, err
		}
		slo = append(slo, l)
	}
	return slo, nil
}

// NewSLOLimit reads one limit: a latency metric with a duration
// ("first_byte_p99", "50ms"), or "errors" (or "max_error_rate") with a
// share or percentage ("0.1%").
func NewSLOLimit(metric, value string) (SLOLimit, error) {
	if metric == SLOErrors || metric == "max_error_rate" {
		x, err := parseShare(value)
		if err != nil {
			return SLOLimit{}, fmt.Errorf("SLO %s: %w", metric, err)
		}
		return SLOLimit{Metric: SLOErrors, Max: x}, nil
	}
	if _, err := latencyOf(OpSummary{}, metric); err != nil {
		return SLOLimit{}, err
	}
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return SLOLimit{}, fmt.Errorf("SLO %s: %q is no latency: write a duration, as 50ms", metric, value)
	}
	return SLOLimit{Metric: metric, Max: d.Seconds()}, nil
}

// parseShare reads "0.001" or "0.1%" as a share in [0, 1].
func parseShare(v string) (float64, error) {
	s, pct := strings.CutSuffix(strings.TrimSpace(v), "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if pct {
		x /= 100
	}
	if err != nil || x < 0 || x > 1 {
		return 0, fmt.Errorf("%q is no rate: write a share (0.001) or a percentage (0.1%%)", v)
	}
	return x, nil
}

// latencyOf returns the latency metric of o in seconds.
func latencyOf(o OpSummary, metric string) (float64, error) {
	kind, q, ok := strings.Cut(metric, "_p")
	if !ok {
		kind, q, ok = strings.Cut(metric, "_")
	} else {
		q = "p" + q
	}
	var st Stats
	switch {
	case ok && kind == "first_byte":
		st = o.FirstByte
	case ok && kind == "last_byte":
		st = o.LastByte
	default:
		return 0, fmt.Errorf("SLO metric %q: want errors, or first_byte_ or last_byte_ with p50, p95, p99, p999, mean or max", metric)
	}
	switch q {
	case "p50":
		return st.P50, nil
	case "p95":
		return st.P95, nil
	case "p99":
		return st.P99, nil
	case "p999":
		return st.P999, nil
	case "mean":
		return st.Mean, nil
	case "max":
		return st.Max, nil
	}
	return 0, fmt.Errorf("SLO metric %q: want p50, p95, p99, p999, mean or max after %s_", metric, kind)
}

// Value returns o's figure for the limit's metric.
func (l SLOLimit) Value(o OpSummary) float64 {
	if l.Metric == SLOErrors {
		return o.ErrorRate()
	}
	v, _ := latencyOf(o, l.Metric)
	return v
}

// format writes x in the limit's unit: "0.1%" or "50ms".
func (l SLOLimit) format(x float64) string {
	if l.Metric == SLOErrors {
		return Percent(x)
	}
	return time.Duration(x * float64(time.Second)).Round(10 * time.Microsecond).String()
}

// String writes the limit as ParseSLO reads it.
func (l SLOLimit) String() string { return l.Metric + "<" + l.format(l.Max) }

// String writes the SLO as ParseSLO reads it.
func (s SLO) String() string {
	parts := make([]string, len(s))
	for i, l := range s {
		parts[i] = l.String()
	}
	return strings.Join(parts, ",")
}

// Check tests o against every limit: nil when all hold, else an error
// naming each one missed with its figure ("first_byte_p99 72ms >= 50ms").
// An o without any successful operation meets no latency limit.
func (s SLO) Check(o OpSummary) error {
	var errs []error
	for _, l := range s {
		v := l.Value(o)
		switch {
		case l.Metric != SLOErrors && o.Count == 0:
			errs = append(errs, fmt.Errorf("%s: no operation succeeded", l.Metric))
		case v > l.Max || v == l.Max && l.Metric != SLOErrors: // an error rate may equal its bound
			op := " >= "
			if l.Metric == SLOErrors {
				op = " > "
			}
			errs = append(errs, errors.New(l.Metric+" "+l.format(v)+op+l.format(l.Max)))
		}
	}
	return errors.Join(errs...)
}

// Describe writes o's figures for the SLO's metrics: "first_byte_p99 38ms, errors 0%".
func (s SLO) Describe(o OpSummary) string {
	parts := make([]string, len(s))
	for i, l := range s {
		parts[i] = l.Metric + " " + l.format(l.Value(o))
	}
	return strings.Join(parts, ", ")
}
