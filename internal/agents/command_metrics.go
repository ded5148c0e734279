package agents

import (
	"fmt"
	"maps"
	"slices"

	"benchbed/plan/outparse"
	"benchbed/results"
)

// Metrics combines the copies' figures into a cell's metrics: rates, sizes
// and counts add up (the copies ran at once), other figures are averaged;
// each metric keeps every copy's figure. A metric that some copy lacks,
// or with different units across copies, is an error.
func (r CommandResult) Metrics() (map[string]results.Figure, error) {
	if len(r.Copies) == 0 {
		return nil, fmt.Errorf("no copies")
	}
	out := map[string]results.Figure{}
	first := r.Copies[0].Figures
	for _, name := range slices.Sorted(maps.Keys(first)) {
		m := results.Figure{Unit: first[name].Unit, How: "mean"}
		if outparse.Sums(m.Unit) {
			m.How = "sum"
		}
		for _, c := range r.Copies {
			f, ok := c.Figures[name]
			if !ok || f.Unit != m.Unit {
				return nil, fmt.Errorf("%s: copy %d has no %s in %q", c.Host, c.Index, name, m.Unit)
			}
			m.PerCopy = append(m.PerCopy, f.Value)
			m.Value += f.Value
		}
		if m.How == "mean" {
			m.Value /= float64(len(r.Copies))
		}
		out[name] = m
	}
	for _, c := range r.Copies[1:] {
		if len(c.Figures) != len(first) {
			return nil, fmt.Errorf("%s: copy %d has %d figures, copy 0 %d", c.Host, c.Index, len(c.Figures), len(first))
		}
	}
	return out, nil
}
