package results

import (
	"fmt"
	"io"
	"strconv"
)

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
