package outparse

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// iozoneChildren is one throughput-mode (-t) line: "Children see
// throughput for  2 initial writers  =  100.46 kB/sec" (or ops/sec).
var iozoneChildren = regexp.MustCompile(`Children see throughput for +[0-9]+ +([A-Za-z -]+?) *= *([0-9.]+) (kB|ops)/sec`)

// iozoneWord is a word of the report table and where it ends.
type iozoneWord struct {
	text string
	end  int
}

// parseIozone reads iozone's report: the throughput-mode lines of -t, or
// else its table (auto mode, -i tests), whose columns are found by where
// the header's words end, since a test not run leaves its column blank.
// Rates are kBytes/sec (1024 bytes) as iozone prints them, or ops/s in OPS
// mode (-O). One table row gives one metric per column ("write",
// "random_read"); several rows suffix each with the row's file and record
// size ("read_102400k_4k") and leave throughput unset. Throughput is read
// (or readers), else write (initial writers).
func parseIozone(out Output) (Figures, error) {
	text := strings.ReplaceAll(out.text(), "\t", "        ")
	figs := Figures{}
	for _, m := range iozoneChildren.FindAllStringSubmatch(text, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		figs[metricName(m[1])] = iozoneFigure(v, m[3] == "ops")
	}
	if len(figs) == 0 {
		if err := iozoneTable(text, figs); err != nil {
			return nil, err
		}
	}
	for _, h := range []string{"read", "readers", "write", "initial_writers"} {
		if f, ok := figs[h]; ok {
			figs[Throughput] = f
			break
		}
	}
	return figs, nil
}

// iozoneFigure is a figure of iozone's: kB/s converted to MB/s, or ops/s.
func iozoneFigure(v float64, ops bool) Figure {
	if ops {
		return Figure{Value: v, Unit: "ops/s"}
	}
	return rate(v, "KiB/s")
}

// iozoneTable adds the report table's figures to figs.
func iozoneTable(text string, figs Figures) error {
	lines := strings.Split(text, "\n")
	ops := strings.Contains(text, "Output is in operations per second")
	for i, l := range lines {
		w := words(l)
		if len(w) < 3 || w[0].text != "kB" || w[1].text != "reclen" {
			continue
		}
		var above []iozoneWord
		if i > 0 {
			above = words(lines[i-1])
		}
		cols := iozoneColumns(w, above)
		var rows [][]iozoneWord
		for _, r := range lines[i+1:] {
			rw := words(r)
			if len(rw) < 3 || !numeric(rw) {
				break
			}
			rows = append(rows, rw)
		}
		if len(rows) == 0 {
			return errors.New("iozone: a report table header without rows")
		}
		return iozoneRows(rows, cols, ops, figs)
	}
	return errors.New("iozone: no report table (a \"kB  reclen\" header) nor \"Children see throughput\" lines")
}

// iozoneColumns names the table's columns: a header word with the word
// above it that ends at the same place ("random" over "read").
func iozoneColumns(header, above []iozoneWord) []iozoneWord {
	cols := make([]iozoneWord, len(header))
	for i, h := range header {
		name := h.text
		for _, a := range above {
			if a.end >= h.end-1 && a.end <= h.end+1 {
				name = a.text + " " + name
			}
		}
		cols[i] = iozoneWord{text: metricName(name), end: h.end}
	}
	return cols
}

// iozoneRows adds each row's figures, placing each value in the column
// whose header ends nearest to where the value ends.
func iozoneRows(rows [][]iozoneWord, cols []iozoneWord, ops bool, figs Figures) error {
	for _, r := range rows {
		suffix := ""
		if len(rows) > 1 {
			suffix = "_" + r[0].text + "k_" + r[1].text + "k"
		}
		for _, v := range r[2:] {
			c := nearest(cols, v.end)
			if c < 2 || abs(cols[c].end-v.end) > 3 {
				return fmt.Errorf("iozone: value %s at column %d is under no header", v.text, v.end)
			}
			x, _ := strconv.ParseFloat(v.text, 64)
			figs[cols[c].text+suffix] = iozoneFigure(x, ops)
		}
	}
	return nil
}

// words splits a line into its words and where each ends.
func words(l string) []iozoneWord {
	var out []iozoneWord
	for _, loc := range wordRE.FindAllStringIndex(l, -1) {
		out = append(out, iozoneWord{text: l[loc[0]:loc[1]], end: loc[1]})
	}
	return out
}

var wordRE = regexp.MustCompile(`\S+`)

// numeric reports whether every word is a number.
func numeric(ws []iozoneWord) bool {
	for _, w := range ws {
		if _, err := strconv.ParseFloat(w.text, 64); err != nil {
			return false
		}
	}
	return true
}

// nearest returns the index of the column ending nearest to end.
func nearest(cols []iozoneWord, end int) int {
	best := 0
	for i, c := range cols {
		if abs(c.end-end) < abs(cols[best].end-end) {
			best = i
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
