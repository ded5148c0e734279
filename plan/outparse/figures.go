package outparse

import (
	"fmt"
	"strings"
)

// Throughput is the metric name of each built-in parser's headline rate,
// in MB/s: what a command workload's table shows by default.
const Throughput = "throughput"

// MBps is the unit every rate is converted to: 10^6 bytes per second.
const MBps = "MB/s"

// Figure is one measured value and its unit ("MB/s", "s", "B", "ops/s").
type Figure struct {
	Value float64
	Unit  string
}

// Figures are one copy's figures by metric name.
type Figures map[string]Figure

// rateBytes is how many bytes per second one of each rate unit is. Decimal
// prefixes are powers of 1000, "Ki", "Mi", "Gi" of 1024; a "b" or "bit"
// unit counts bits.
var rateBytes = map[string]float64{
	"B/s": 1, "kB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9,
	"KiB/s": 1 << 10, "MiB/s": 1 << 20, "GiB/s": 1 << 30,
	"bit/s": 1.0 / 8, "kbit/s": 1e3 / 8, "Mbit/s": 1e6 / 8, "Gbit/s": 1e9 / 8,
	"b/s": 1.0 / 8, "Kb/s": 1e3 / 8, "kb/s": 1e3 / 8, "Mb/s": 1e6 / 8, "Gb/s": 1e9 / 8,
}

// sumUnits are the non-rate units whose figures add up over copies.
var sumUnits = map[string]bool{"B": true, "ops": true, "ops/s": true, "IOPS": true, "count": true}

// IsRate reports whether unit is a rate outparse converts to MB/s.
func IsRate(unit string) bool { _, ok := rateBytes[unit]; return ok }

// rate returns v of unit as a Figure in MB/s; unit must be a rate.
func rate(v float64, unit string) Figure {
	return Figure{Value: v * rateBytes[unit] / 1e6, Unit: MBps}
}

// normalise converts a figure in any rate unit to MB/s and leaves others.
func normalise(f Figure) Figure {
	if IsRate(f.Unit) {
		return rate(f.Value, f.Unit)
	}
	return f
}

// Sums reports whether unit's figures add up over copies run at once.
func Sums(unit string) bool { return unit == MBps || IsRate(unit) || sumUnits[unit] }

// metricName turns a tool's label ("random read", "re-readers") into a
// metric name: lower case, runs of other characters as "_".
func metricName(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// need returns an error naming the tool when figs lacks a throughput.
func need(tool string, figs Figures) (Figures, error) {
	if _, ok := figs[Throughput]; !ok {
		return nil, fmt.Errorf("%s: no throughput in the output", tool)
	}
	return figs, nil
}
