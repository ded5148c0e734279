package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"benchbed/results"
	"benchbed/results/telemetry"
)

// TelemetryDelta is one telemetry figure on both sides of a pair: its
// run-phase value averaged over each side's pooled cells, and B - A in
// the figure's unit (percentage points for a percent).
type TelemetryDelta struct {
	Name  string  `json:"name"`
	A     float64 `json:"a"`
	B     float64 `json:"b"`
	Delta float64 `json:"delta"`
	Note  string  `json:"note,omitempty"`
}

// telFigures are one side's telemetry figures by name, in first-seen
// order, with how many cells gave each.
type telFigures struct {
	names []string
	sum   map[string]float64
	n     map[string]int
	// busiest names each cell's busiest disk, bottleneck its bottleneck.
	busiest, bottleneck []string
	cells               int
}

// busiestName is the figure of the busiest disk, whichever it is.
const busiestName = "busiest disk util % (mean)"

func (f *telFigures) add(name string, v float64) {
	if _, ok := f.sum[name]; !ok {
		f.names = append(f.names, name)
	}
	f.sum[name] += v
	f.n[name]++
}

// collectTelemetry gathers the figures of the cells that have telemetry:
// per host CPU busy (mean, p95), the busiest disk's utilisation, per
// service CPU.
func collectTelemetry(cells []*results.Cell) *telFigures {
	f := &telFigures{sum: map[string]float64{}, n: map[string]int{}}
	for _, c := range cells {
		t := c.Telemetry
		if t == nil {
			continue
		}
		f.cells++
		for _, h := range t.Hosts {
			f.add(h.Host+" CPU busy % (mean)", h.CPUBusy.Mean)
			f.add(h.Host+" CPU busy % (p95)", h.CPUBusy.P95)
		}
		if d := busiestDisk(t); d != nil {
			f.add(busiestName, d.Util.Mean)
			f.busiest = appendNew(f.busiest, t.Busiest)
		}
		for _, s := range t.Services {
			f.add(s.Host+" "+s.Service+" CPU % of a core (mean)", s.CPU.Mean)
		}
		f.bottleneck = appendNew(f.bottleneck, t.Bottleneck)
	}
	return f
}

// busiestDisk returns the summary's busiest disk, nil without one.
func busiestDisk(t *telemetry.CellSummary) *telemetry.DiskSummary {
	for i, d := range t.Disks {
		if d.Host+":"+d.Disk == t.Busiest {
			return &t.Disks[i]
		}
	}
	return nil
}

func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// compareTelemetry gives the figures both sides have, and notes: a side
// without telemetry, a figure on one side only, each side's bottleneck.
func compareTelemetry(ca, cb []*results.Cell) ([]TelemetryDelta, []string) {
	a, b := collectTelemetry(ca), collectTelemetry(cb)
	switch {
	case a.cells == 0 && b.cells == 0:
		return nil, nil
	case a.cells == 0 || b.cells == 0:
		side := map[bool]string{true: "A", false: "B"}[a.cells == 0]
		return nil, []string{"telemetry: only one side has it (" + side + " has none): no telemetry deltas"}
	}
	var out []TelemetryDelta
	var oneSide []string
	for _, name := range a.names {
		if b.n[name] == 0 {
			oneSide = append(oneSide, name+" (A)")
			continue
		}
		va, vb := round1(a.sum[name]/float64(a.n[name])), round1(b.sum[name]/float64(b.n[name]))
		d := TelemetryDelta{Name: name, A: va, B: vb, Delta: round1(vb - va)}
		if name == busiestName {
			d.Note = "A " + strings.Join(a.busiest, ", ") + "; B " + strings.Join(b.busiest, ", ")
		}
		out = append(out, d)
	}
	for _, name := range b.names {
		if a.n[name] == 0 {
			oneSide = append(oneSide, name+" (B)")
		}
	}
	notes := []string{fmt.Sprintf("bottleneck: A %s; B %s", orNone(a.bottleneck), orNone(b.bottleneck))}
	if len(oneSide) > 0 {
		notes = append(notes, "telemetry on one side only: "+strings.Join(oneSide, ", "))
	}
	return out, notes
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none named"
	}
	return strings.Join(list, " / ")
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// writeTelemetryDeltas writes the pair's telemetry table: figure, A, B,
// delta in the figure's unit, note.
func writeTelemetryDeltas(w io.Writer, p *Pair, md bool) error {
	if len(p.Telemetry) == 0 {
		return nil
	}
	var r tw.Renderer = renderer.NewBlueprint()
	if md {
		r = renderer.NewMarkdown()
	}
	t := tablewriter.NewTable(w, tablewriter.WithRenderer(r), tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(telemetryAlignment), tablewriter.WithRowAlignmentConfig(telemetryAlignment))
	t.Header("telemetry (run phase)", "A", "B", "B - A", "note")
	for _, d := range p.Telemetry {
		if err := t.Append(d.Name, ff1(d.A), ff1(d.B), fmt.Sprintf("%+.1f", d.Delta), d.Note); err != nil {
			return fmt.Errorf("compare telemetry table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("compare telemetry table: %w", err)
	}
	return nil
}

// telemetryAlignment puts names and notes left and figures right.
var telemetryAlignment = tw.CellAlignment{Global: tw.AlignRight,
	PerColumn: []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}}

func ff1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
