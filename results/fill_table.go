package results

import (
	"fmt"
	"io"
	"strconv"
)

// AverageFill averages the fill buckets of a cell's repeats (those that
// finished, "ok", with fill buckets): per bucket, the operations and errors
// summed, each latency statistic the mean of the repeats that had an
// operation in it (not merged histograms, as the repeat table). It returns
// the buckets and the repeats they average; the repeats must share their
// buckets.
func AverageFill(cells []Cell) ([]FillBucket, int, error) {
	var out []FillBucket
	var n int
	var fb, lb [][]Stats // by bucket: each repeat's first and last byte
	for _, c := range cells {
		if c.Status != "ok" || len(c.Fill) == 0 {
			continue
		}
		if n == 0 {
			out = make([]FillBucket, len(c.Fill))
			fb, lb = make([][]Stats, len(c.Fill)), make([][]Stats, len(c.Fill))
		}
		if err := sameBuckets(out, c.Fill, n); err != nil {
			return nil, 0, fmt.Errorf("cell %s: %w", c.ID, err)
		}
		n++
		for i, b := range c.Fill {
			out[i].From, out[i].To = b.From, b.To
			out[i].Count += b.Count
			out[i].Errors += b.Errors
			if b.Count > 0 {
				fb[i], lb[i] = append(fb[i], b.FirstByte), append(lb[i], b.LastByte)
			}
		}
	}
	for i := range out {
		out[i].FirstByte, out[i].LastByte = meanStats(fb[i]), meanStats(lb[i])
	}
	return out, n, nil
}

// sameBuckets checks that b has the buckets of the repeats seen so far.
func sameBuckets(avg, b []FillBucket, seen int) error {
	if seen == 0 {
		return nil
	}
	if len(b) != len(avg) {
		return fmt.Errorf("%d fill buckets, the other repeats %d", len(b), len(avg))
	}
	for i := range b {
		if b[i].From != avg[i].From || b[i].To != avg[i].To {
			return fmt.Errorf("fill bucket %d is %d..%d, the other repeats' %d..%d", i, b[i].From, b[i].To, avg[i].From, avg[i].To)
		}
	}
	return nil
}

// meanStats averages s field by field (all zero for none).
func meanStats(s []Stats) Stats {
	var m Stats
	for _, x := range s {
		m.Min, m.Max, m.Mean, m.StdDev = m.Min+x.Min, m.Max+x.Max, m.Mean+x.Mean, m.StdDev+x.StdDev
		m.P50, m.P95, m.P99, m.P999 = m.P50+x.P50, m.P95+x.P95, m.P99+x.P99, m.P999+x.P999
	}
	if len(s) == 0 {
		return m
	}
	n := float64(len(s))
	for _, p := range []*float64{&m.Min, &m.Max, &m.Mean, &m.StdDev, &m.P50, &m.P95, &m.P99, &m.P999} {
		*p /= n
	}
	return m
}

// FillLegend says what WriteFillTable's figures are.
const FillLegend = "objects: the containers' fill when the PUTs started (each agent's acknowledged PUTs times the " +
	"agents, over the containers), from..to (excluded); % of the target; n: PUTs that succeeded, errors: " +
	"those that failed (summed over the repeats); first byte and last byte in milliseconds (p50, p95, p99, " +
	"mean), each the mean of the repeats' values; - when a bucket has no PUT."

// FillHeader is the header of the fill table (FillRows).
var FillHeader = []string{"objects", "% of target", "n", "errors", "fb p50", "fb p95", "fb p99", "lb p50", "lb p95", "lb p99", "lb mean"}

// FillRows are the fill table's rows, one per bucket: its objects, its
// share of the target, PUTs, errors and latencies in ms ("-" without PUT).
func FillRows(buckets []FillBucket) [][]string {
	target := FillTarget(buckets)
	rows := make([][]string, 0, len(buckets))
	for _, b := range buckets {
		row := []string{fmt.Sprintf("%d..%d", b.From, b.To), percents(b, target),
			strconv.FormatInt(b.Count, 10), strconv.FormatInt(b.Errors, 10)}
		for _, x := range []float64{b.FirstByte.P50, b.FirstByte.P95, b.FirstByte.P99, b.LastByte.P50,
			b.LastByte.P95, b.LastByte.P99, b.LastByte.Mean} {
			row = append(row, ms(x, b.Count > 0))
		}
		rows = append(rows, row)
	}
	return rows
}

// WriteFillTable renders a cell's fill buckets as markdown, one row per
// bucket, followed by FillLegend.
func WriteFillTable(w io.Writer, buckets []FillBucket) error {
	return writeMarkdown(w, FillHeader, FillRows(buckets), FillLegend)
}

// writeMarkdown renders a markdown table followed by its legend.
func writeMarkdown(w io.Writer, header []string, rows [][]string, legend string) error {
	t := markdownTable(w)
	t.Header(header)
	for _, row := range rows {
		if err := t.Append(row); err != nil {
			return fmt.Errorf("table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	_, err := fmt.Fprintf(w, "\n%s\n", legend)
	return err
}

// FillTarget is the fill target of buckets: the last one's end.
func FillTarget(buckets []FillBucket) int64 {
	if len(buckets) == 0 {
		return 0
	}
	return buckets[len(buckets)-1].To
}

// percents is b's bounds as shares of target, in whole percents.
func percents(b FillBucket, target int64) string {
	if target <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f..%.0f", 100*float64(b.From)/float64(target), 100*float64(b.To)/float64(target))
}

// ms shows seconds x in milliseconds (2 decimals), "-" when there is none.
func ms(x float64, has bool) string {
	if !has {
		return "-"
	}
	return strconv.FormatFloat(x*1000, 'f', 2, 64)
}
