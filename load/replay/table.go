package replay

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"benchbed/results"
)

// WriteTable writes each replayed method's operations, failures and
// latency (to the last byte, from each request's due time) beside the
// production request_time of the same requests.
func WriteTable(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "replayed %d requests in %.1f s (%d prefilled first, %d logged requests skipped, %d lines garbled)\n",
		ops(res.Recording), res.Duration.Seconds(), res.Prefilled, res.Skipped, res.Stats.Garbled)
	fmt.Fprintln(tw, "method\tok\tfailed\tp50\tp99\tproduction p50\tproduction p99\tfailures")
	for _, m := range Methods {
		h, p := res.Recording[m], res.Production[m]
		if h == nil || p == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", m, h.LastByte.Count(), h.ErrorCount(),
			ms(h.LastByte, 0.5), ms(h.LastByte, 0.99), ms(p, 0.5), ms(p, 0.99), failures(h.Errors))
	}
	return tw.Flush()
}

// ops counts the operations recorded.
func ops(r results.Recording) int64 {
	var n int64
	for _, h := range r {
		n += h.LastByte.Count() + h.ErrorCount()
	}
	return n
}

// ms renders h's quantile q in milliseconds ("-" when empty).
func ms(h *results.Hist, q float64) string {
	if h == nil || h.Count() == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fms", float64(h.Quantile(q))/float64(time.Millisecond))
}

// failures lists the failures by cause: "http_404:1".
func failures(m map[string]int64) string {
	var parts []string
	for k, n := range m {
		parts = append(parts, fmt.Sprintf("%s:%d", k, n))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}
