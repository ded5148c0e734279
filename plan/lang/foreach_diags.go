package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// EachDiags calls fn with each point of a for_each, in order, and says
// once a diagnostic that several points gave alike (the same severity,
// summary, detail and range), naming them: one mistake in a block with
// for_each is one error, not one per element.
func (d *Decoder) EachDiags(points []EachPoint, fn func(EachPoint)) {
	start := len(d.Diags)
	var merged hcl.Diagnostics
	var names [][]string
	index := map[string]int{}
	for _, p := range points {
		before := len(d.Diags)
		fn(p)
		for _, diag := range d.Diags[before:] {
			k := fmt.Sprint(diag.Severity, "\x00", diag.Summary, "\x00", diag.Detail, "\x00", diag.Subject)
			if i, ok := index[k]; ok {
				names[i] = append(names[i], p.Name)
				continue
			}
			index[k] = len(merged)
			merged = append(merged, diag)
			names = append(names, []string{p.Name})
		}
	}
	d.Diags = append(d.Diags[:start], merged...)
	for i, diag := range merged {
		if len(names[i]) > 1 {
			c := *diag
			c.Detail = strings.TrimSpace(fmt.Sprintf("%s\n(in each of the for_each's %d elements: %s)", c.Detail, len(names[i]), strings.Join(names[i], ", ")))
			d.Diags[start+i] = &c
		}
	}
}
