package workload

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// WriteText writes the fit for a reader: the lines read, the rate, the
// mix by method with its statuses, sizes and latencies, popularity,
// lifetimes and the rate's range over time.
func WriteText(w io.Writer, f *Fit) error {
	p := &printer{w: w}
	p.f("lines %d, records %d, garbled %d\n", f.Lines, f.Records, f.Garbled)
	p.f("client requests %d over %.1f s from %s (subrequests left out: %d)\n",
		f.Requests, f.Seconds, f.Start.UTC().Format("2006-01-02T15:04:05Z"), f.Subrequests)
	p.f("by kind: %s\n", kinds(f.Kinds))
	p.f("mean rate %.2f req/s, object requests %.2f req/s\n\n", f.MeanRate, f.ObjectRate)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tcount\tmix %\tstatus\tsize p10\tp50\tp90\tp99\tmax\tlatency p50\tp99")
	for _, o := range f.Ops {
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%s\t%s\t%s\n", o.Method, o.Count, o.Percent, statuses(o.Status), sizes(o.Sizes), latency(o.Latency))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	pop := f.Popularity
	p.f("\npopularity: %.0f objects, %.0f containers, %d reads, zipf s=%.3f over %d ranks; top shares %s\n",
		pop.Objects, pop.Containers, pop.Reads, pop.Zipf, pop.ZipfRanks, shares(pop.TopShare))
	l := f.Lifetimes
	p.f("puts over an object put before (updates): %d\n", l.Overwrites)
	p.f("put-to-get: %s (%d of %d GETs found their PUT)\n", seconds(l.PutToGet), l.GetsMatched, l.Gets)
	p.f("put-to-delete: %s (%d of %d DELETEs found their PUT)\n", seconds(l.PutToDelete), l.DelsMatched, l.Deletes)
	p.f("rate over time: %d intervals of %.0f s, %s\n", len(f.Profile.Rates), f.Profile.Interval, rateRange(f.Profile.Rates))
	return p.err
}

// printer writes and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, a ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, a...)
	}
}

func kinds(m map[string]int64) string {
	var parts []string
	for _, k := range []string{"object", "container", "account", "auth", "other"} {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
	}
	return strings.Join(parts, ", ")
}

func statuses(m map[string]int64) string {
	var parts []string
	for _, k := range []string{"2xx", "3xx", "4xx", "5xx", "1xx", "other"} {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", k, m[k]))
		}
	}
	return strings.Join(parts, " ")
}

func sizes(q *Quantiles) string {
	if q == nil {
		return "-\t-\t-\t-\t-"
	}
	return strings.Join([]string{bytes(q.P10), bytes(q.P50), bytes(q.P90), bytes(q.P99), bytes(q.Max)}, "\t")
}

func latency(q *Quantiles) string {
	if q == nil {
		return "-\t-"
	}
	return fmt.Sprintf("%.4fs\t%.4fs", q.P50, q.P99)
}

func seconds(q *Quantiles) string {
	if q == nil {
		return "none"
	}
	return fmt.Sprintf("p10 %.1fs p50 %.1fs p90 %.1fs", q.P10, q.P50, q.P90)
}

// bytes renders a size with a binary unit: "1.5Ki".
func bytes(v float64) string {
	units := []string{"", "Ki", "Mi", "Gi", "Ti"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f%s", v, units[i])
}

func shares(s []Share) string {
	var parts []string
	for _, x := range s {
		parts = append(parts, fmt.Sprintf("top %d: %.1f%%", x.N, x.Percent))
	}
	return strings.Join(parts, ", ")
}

func rateRange(r []float64) string {
	if len(r) == 0 {
		return "none"
	}
	lo, hi := math.Inf(1), 0.0
	for _, x := range r {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return fmt.Sprintf("from %.2f to %.2f req/s", lo, hi)
}
