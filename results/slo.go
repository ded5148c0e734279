package results

import (
	"errors"
	"strings"

	"benchbed/plan/slo"
)

// latencyOf returns o's latency of a metric slo.Latency accepts, in seconds.
func latencyOf(o OpSummary, metric string) float64 {
	kind, stat, err := slo.Latency(metric)
	if err != nil {
		return 0
	}
	st := o.FirstByte
	if kind == "last_byte" {
		st = o.LastByte
	}
	switch stat {
	case "p50":
		return st.P50
	case "p95":
		return st.P95
	case "p99":
		return st.P99
	case "p999":
		return st.P999
	case "mean":
		return st.Mean
	}
	return st.Max
}

// SLOValue returns o's figure for the limit's metric.
func SLOValue(l slo.Limit, o OpSummary) float64 {
	if l.Metric == slo.Errors {
		return o.ErrorRate()
	}
	return latencyOf(o, l.Metric)
}

// CheckSLO tests o against every limit of s: nil when all hold, else an
// error naming each one missed with its figure ("first_byte_p99 72ms >=
// 50ms"). An error rate may equal its bound; a latency may not. An o
// without any successful operation meets no latency limit.
func CheckSLO(s slo.SLO, o OpSummary) error {
	var errs []error
	for _, l := range s {
		v := SLOValue(l, o)
		switch {
		case l.Metric != slo.Errors && o.Count == 0:
			errs = append(errs, errors.New(l.Metric+": no operation succeeded"))
		case l.Metric == slo.Errors && v > l.Max:
			errs = append(errs, errors.New(l.Metric+" "+l.Format(v)+" > "+l.Format(l.Max)))
		case l.Metric != slo.Errors && v >= l.Max:
			errs = append(errs, errors.New(l.Metric+" "+l.Format(v)+" >= "+l.Format(l.Max)))
		}
	}
	return errors.Join(errs...)
}

// DescribeSLO writes o's figures for s's metrics: "first_byte_p99 38ms, errors 0%".
func DescribeSLO(s slo.SLO, o OpSummary) string {
	parts := make([]string, len(s))
	for i, l := range s {
		parts[i] = l.Metric + " " + l.Format(SLOValue(l, o))
	}
	return strings.Join(parts, ", ")
}
