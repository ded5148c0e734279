package compare

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"benchbed/results"
	"benchbed/templates"
)

// DefaultWidth is the columns text output keeps within unless told more.
const DefaultWidth = 120

// VerdictBlock is one variant's verdict against the baseline, as compare
// and report print it first.
type VerdictBlock struct {
	Name    string           `json:"name"`    // "servers_per_port=2 / 64K_get"
	Changes []results.Change `json:"changes"` // ShownMetrics, in order (a fault pair's: during the fault)
	// Other is a fault pair's ShownMetrics in its other phases (before,
	// after), in order.
	Other   []results.Change `json:"other_phases,omitempty"`
	Changed []string         `json:"changed"` // what the variant changes, a line each
	Failed  string           `json:"failed,omitempty"`
	// Variant and Workload are the variant's (Name without "(failed)"),
	// and Conf what it changes, as data: what report.html's table shows.
	Variant  string    `json:"-"`
	Workload string    `json:"-"`
	Conf     *ConfDiff `json:"-"`
}

// NewVerdictBlock is a pair's verdict block.
func NewVerdictBlock(p *Pair) VerdictBlock {
	v := VerdictBlock{Name: p.B, Changed: p.Conf.Summary(), Workload: p.Workload, Conf: p.Conf}
	v.Variant = strings.TrimSuffix(strings.TrimSuffix(p.B, " (failed)"), " / "+p.Workload)
	if p.FailedA || p.FailedB {
		v.Failed = "a side failed: no figures to decide on"
	}
	for _, ph := range phasesOf(p) {
		for _, m := range ShownMetrics {
			for _, c := range p.PhasesOf(m) {
				switch {
				case c.Phase != ph:
				case ph == "" || ph == VerdictPhases[0]:
					v.Changes = append(v.Changes, *c)
				default:
					v.Other = append(v.Other, *c)
				}
			}
		}
	}
	return v
}

// phasesOf is the phases the pair's verdict decides, in order: "" alone
// for a pair that is no fault pair.
func phasesOf(p *Pair) []string {
	for _, c := range p.Verdict {
		if c.Phase != "" {
			return VerdictPhases
		}
	}
	return []string{""}
}

// WriteVerdictBlocks writes the heading and each block, every line cut to
// width columns (0: DefaultWidth).
func WriteVerdictBlocks(w io.Writer, baseline string, vs []VerdictBlock, width int) error {
	if width <= 0 {
		width = DefaultWidth
	}
	var b strings.Builder
	margin := results.DefaultMargin * 100
	if len(vs) > 0 && len(vs[0].Changes) > 0 {
		margin = vs[0].Changes[0].MarginPct
	}
	line(&b, width, fmt.Sprintf("verdict against %s (95%% intervals; no difference: within ±%g%%)", baseline, margin))
	for _, v := range vs {
		writeBlock1(&b, v, width)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeBlock1 writes one variant's block.
func writeBlock1(b *strings.Builder, v VerdictBlock, width int) {
	head := "  " + v.Name
	if len(v.Changes) > 0 && v.Changes[0].Phase != "" {
		head += ", phase by phase of its fault"
	}
	if len(v.Changes) > 0 && v.Changes[0].Evidence != results.EvidenceNone {
		head += ": " + v.Changes[0].By()
	}
	line(b, width, head)
	if v.Failed != "" {
		line(b, width, "    not decided: "+v.Failed)
	}
	for _, c := range append(slices.Clip(v.Changes), v.Other...) {
		line(b, width, "    "+changeLine(c))
	}
	for _, c := range v.Changed {
		line(b, width, "    changes "+c)
	}
}

// changeLine is "req/s           +4.1%  [+2.0, +6.2]  better".
func changeLine(c results.Change) string {
	word := c.Word
	if c.Word == results.WordUndecided && c.Reason != "" {
		word += ": " + c.Reason
	}
	if c.Word == results.WordBetter || c.Word == results.WordWorse {
		if c.Evidence == results.EvidenceBatches {
			word += " (weaker evidence: one run a side)"
		}
	}
	if c.Phase != "" {
		return fmt.Sprintf("%-6s %-15s %-25s %s", c.Phase, MetricLabel(c.Metric), c.Short(), word)
	}
	return fmt.Sprintf("%-15s %-22s %s", MetricLabel(c.Metric), c.Short(), word)
}

// MetricLabel names a verdict metric for people: "first-byte p99".
func MetricLabel(m string) string {
	return strings.Replace(strings.ReplaceAll(m, "_", "-"), "-p", " p", 1)
}

// line writes s cut to width columns, then a newline.
func line(b *strings.Builder, width int, s string) {
	if r := []rune(s); len(r) > width {
		s = string(r[:width-1]) + "…"
	}
	b.WriteString(s + "\n")
}

// Summary is the diff in a line per file and ring: "object-server.conf
// (stor1, stor2): [DEFAULT] workers: 2 -> 4"; "same configuration" when
// nothing differs.
func (d *ConfDiff) Summary() []string {
	if d == nil {
		return nil
	}
	var out []string
	for _, f := range d.Files {
		var ch []string
		for _, c := range f.Changes {
			ch = append(ch, "["+c.Section+"] "+c.Text)
		}
		if f.Only != "" {
			ch = append(ch, "only in "+f.Only)
		}
		ch = append(ch, f.Lines...)
		out = append(out, fmt.Sprintf("%s (%s): %s", path.Base(f.Path), strings.Join(f.Hosts, ", "), strings.Join(ch, "; ")))
	}
	out = append(out, d.Rings...)
	if len(out) == 0 && len(d.Missing) == 0 {
		out = append(out, "nothing in its confs or ring ports (same configuration)")
	}
	return out
}

// Retired names each retired Swift option (templates.RetiredOptions) that
// B sets: "threads_per_disk (object-server.conf): removed in Swift 2.8.0;
// use servers_per_port with one ring port per disk".
func (d *ConfDiff) Retired() []string {
	var out []string
	for _, f := range d.Files {
		for _, c := range f.Changes {
			i := slices.IndexFunc(templates.RetiredOptions, func(r templates.Retired) bool {
				return r.Key == c.Key && (r.Sections == nil || slices.Contains(r.Sections, c.Section))
			})
			if i < 0 || c.New == nil {
				continue
			}
			r := templates.RetiredOptions[i]
			when := "deprecated in Swift " + r.Deprecated
			if r.Removed != "" {
				when = "removed in Swift " + r.Removed
			}
			out = append(out, fmt.Sprintf("%s (%s): %s; use %s", c.Key, path.Base(f.Path), when, r.Replacement))
		}
	}
	return out
}

// writeVerdictFirst writes the comparisons' verdict blocks against
// baseline, then a blank line (markdown: in a code block).
func writeVerdictFirst(b *strings.Builder, baseline string, cs []*Comparison, md bool) error {
	var vs []VerdictBlock
	width := 0
	if cs[0].Mode == "cells" && len(cs[0].Pairs) > 0 {
		baseline = cs[0].Pairs[0].A
	} else {
		baseline = "run " + path.Base(baseline)
	}
	for _, c := range cs {
		width = c.Width
		for i := range c.Pairs {
			vs = append(vs, NewVerdictBlock(&c.Pairs[i]))
		}
	}
	if md {
		b.WriteString("```\n")
	}
	if err := WriteVerdictBlocks(b, baseline, vs, width); err != nil {
		return err
	}
	if md {
		b.WriteString("```\n")
	}
	b.WriteString("\n")
	return nil
}

// ColumnNames names each comparison's column by what it compares: the
// variant (or cell) of a cell comparison, the run id of a run's; a name
// twice gets its position.
func ColumnNames(cs []*Comparison) []string {
	out := make([]string, len(cs))
	seen := map[string]int{}
	for i, c := range cs {
		n := path.Base(c.B)
		if c.Mode == "cells" && len(c.Pairs) > 0 {
			n, _, _ = strings.Cut(c.Pairs[0].B, " / ")
		}
		if seen[n]++; seen[n] > 1 {
			n = fmt.Sprintf("%s #%d", n, i+1)
		}
		out[i] = n
	}
	return out
}
