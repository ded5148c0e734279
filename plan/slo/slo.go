// Package slo reads the objectives and gates the testbed language and the
// command line write: service-level objectives ("first_byte_p99<50ms,
// errors<0.1%") and regression thresholds ("req/s < -5%"). It imports
// only the standard library; results checks figures against them.
package slo

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Errors is the SLO metric of the share of failed operations; the
// testbed language also calls it max_error_rate.
const Errors = "errors"

// Limit is one bound of a service-level objective: Metric < Max.
// Metric is "errors" (Max a share) or a latency, "first_byte_p99" (Max in
// seconds): first_byte or last_byte, then p50, p95, p99, p999, mean or max.
type Limit struct {
	Metric string  `json:"metric"`
	Max    float64 `json:"max"`
}

// SLO is a service-level objective: every limit must hold.
type SLO []Limit

// Parse reads limits as `benchbed load --search` takes them:
// "first_byte_p99<50ms,errors<0.1%".
func Parse(s string) (SLO, error) {
	var out SLO
	for part := range strings.SplitSeq(s, ",") {
		metric, value, ok := strings.Cut(part, "<")
		if !ok {
			return nil, fmt.Errorf("SLO %q: want METRIC<VALUE, as first_byte_p99<50ms or errors<0.1%%", part)
		}
		l, err := NewLimit(strings.TrimSpace(metric), strings.TrimSpace(value))
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// NewLimit reads one limit: a latency metric with a duration
// ("first_byte_p99", "50ms"), or "errors" (or "max_error_rate") with a
// share or percentage ("0.1%").
func NewLimit(metric, value string) (Limit, error) {
	if metric == Errors || metric == "max_error_rate" {
		x, err := parseShare(value)
		if err != nil {
			return Limit{}, fmt.Errorf("SLO %s: %w", metric, err)
		}
		return Limit{Metric: Errors, Max: x}, nil
	}
	if _, _, err := Latency(metric); err != nil {
		return Limit{}, err
	}
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return Limit{}, fmt.Errorf("SLO %s: %q is no latency: write a duration, as 50ms", metric, value)
	}
	return Limit{Metric: metric, Max: d.Seconds()}, nil
}

// Latency splits a latency metric into its kind ("first_byte" or
// "last_byte") and statistic ("p50", "p95", "p99", "p999", "mean", "max").
func Latency(metric string) (kind, stat string, err error) {
	kind, stat, ok := strings.Cut(metric, "_p")
	if ok {
		stat = "p" + stat
	} else if i := strings.LastIndex(metric, "_"); i > 0 {
		kind, stat, ok = metric[:i], metric[i+1:], true
	}
	if !ok || kind != "first_byte" && kind != "last_byte" {
		return "", "", fmt.Errorf("SLO metric %q: want errors, or first_byte_ or last_byte_ with p50, p95, p99, p999, mean or max", metric)
	}
	switch stat {
	case "p50", "p95", "p99", "p999", "mean", "max":
		return kind, stat, nil
	}
	return "", "", fmt.Errorf("SLO metric %q: want p50, p95, p99, p999, mean or max after %s_", metric, kind)
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

// Format writes x in the limit's unit: "0.1%" or "50ms".
func (l Limit) Format(x float64) string {
	if l.Metric == Errors {
		return Percent(x)
	}
	return time.Duration(x * float64(time.Second)).Round(10 * time.Microsecond).String()
}

// String writes the limit as Parse reads it.
func (l Limit) String() string { return l.Metric + "<" + l.Format(l.Max) }

// String writes the SLO as Parse reads it.
func (s SLO) String() string {
	parts := make([]string, len(s))
	for i, l := range s {
		parts[i] = l.String()
	}
	return strings.Join(parts, ",")
}

// ShortDuration writes d as time.Duration does, without zero minutes or
// seconds at its end: "1h", "2m", "1m30s".
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// Percent writes a share as a percentage, trailing zeros dropped: "0.1%".
func Percent(x float64) string {
	s := strconv.FormatFloat(x*100, 'f', 2, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".") + "%"
}
