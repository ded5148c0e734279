package report

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"

	"benchbed/results"
)

// CSVHeader is the header row of WriteCSV: one row per cell and
// operation type (and "total" when a cell has several), times in seconds.
var CSVHeader = []string{"cell", "variant", "workload", "repeat", "status", "op", "duration_s", "count", "errors",
	"retries", "req_per_s",
	"first_byte_min_s", "first_byte_mean_s", "first_byte_stddev_s", "first_byte_p50_s", "first_byte_p95_s",
	"first_byte_p99_s", "first_byte_p999_s", "first_byte_max_s",
	"last_byte_min_s", "last_byte_mean_s", "last_byte_stddev_s", "last_byte_p50_s", "last_byte_p95_s",
	"last_byte_p99_s", "last_byte_p999_s", "last_byte_max_s", "error"}

// WriteCSV writes one row per cell and operation type, in the summary's
// order, with full-precision figures in seconds.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, c := range r.Run.Summary.Cells {
		for _, row := range results.CellRows(c) {
			o := row.Op
			rec := []string{cellName(c), c.Variant, c.Workload, strconv.Itoa(c.Repeat), c.Status, row.Label,
				num(c.DurationS), strconv.FormatInt(o.Count, 10), strconv.FormatInt(o.Errors, 10),
				strconv.FormatInt(o.Retries, 10), num(o.ReqPerS)}
			rec = append(rec, statCols(o.FirstByte)...)
			rec = append(rec, statCols(o.LastByte)...)
			rec = append(rec, oneLine(c.Error))
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func statCols(s results.Stats) []string {
	return []string{num(s.Min), num(s.Mean), num(s.StdDev), num(s.P50), num(s.P95), num(s.P99), num(s.P999), num(s.Max)}
}

// num formats x with as many digits as it needs, never in exponent form
// (spreadsheets read it as it is).
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// JSONReport is WriteJSON's document: summary.json as it is (run, testbed,
// cells), whether the run is partial, and the aggregates over repeats.
type JSONReport struct {
	results.Summary
	Partial bool          `json:"partial"`
	Repeats []RepeatGroup `json:"repeats"`
	// Fill is each fill experiment's buckets averaged over its repeats.
	Fill    []FillSeries `json:"fill,omitempty"`
	Notices []string     `json:"notices,omitempty"`
}

// WriteJSON writes the JSONReport, indented.
func (r *Report) WriteJSON(w io.Writer) error {
	doc := JSONReport{Summary: r.Run.Summary, Partial: r.Run.Partial, Repeats: r.Repeats,
		Notices: append(append([]string(nil), r.Notices...), r.Problems...)}
	if doc.Repeats == nil {
		doc.Repeats = []RepeatGroup{}
	}
	if fill, err := FillSeriesOf(r.Run.Summary.Cells); err == nil {
		doc.Fill = fill
	} else {
		doc.Notices = append(doc.Notices, "fill: "+err.Error())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
