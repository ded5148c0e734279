package render

import (
	"fmt"

	"benchbed/plan"
)

// PortChange is a ring's port change on one host between two layouts.
type PortChange struct {
	Ring    string
	Host    string
	Devices []string // device names, in order
	Old     []int    // port of each device in the first layout
	New     []int    // port of each device in the second layout
}

// String gives "stor1: d0..d31 6200 -> 6210..6241" for contiguous runs, else
// every device.
func (c PortChange) String() string {
	return fmt.Sprintf("%s: %s %s -> %s", c.Host, plan.SpanNames(c.Devices), plan.SpanNums(c.Old), plan.SpanNums(c.New))
}

// DiffLayouts returns the ring port changes from a to b, per ring and host,
// and the rings whose mode changed ("object: one port per host (6200) -> one
// port per disk from 6210").
func DiffLayouts(a, b *plan.Layout) (modes []string, changes []PortChange) {
	for _, rb := range b.Rings {
		ra := a.Ring(rb.Ring.Name)
		if ra == nil {
			continue
		}
		if ra.Mode() != rb.Mode() {
			modes = append(modes, fmt.Sprintf("ring %s: %s -> %s", rb.Ring.Name, ra.Mode(), rb.Mode()))
		}
		changes = append(changes, ringPortChanges(ra, rb)...)
	}
	return modes, changes
}

// ringPortChanges returns the port changes of one ring from ra to rb, one
// per host in device order.
func ringPortChanges(ra, rb *plan.RingLayout) []PortChange {
	old := map[string]int{}
	for _, d := range ra.Devices {
		old[d.Host+"/"+d.Name] = d.Port
	}
	var out []PortChange
	index := map[string]int{}
	for _, d := range rb.Devices {
		p, ok := old[d.Host+"/"+d.Name]
		if !ok || p == d.Port {
			continue
		}
		i, seen := index[d.Host]
		if !seen {
			i = len(out)
			index[d.Host] = i
			out = append(out, PortChange{Ring: rb.Ring.Name, Host: d.Host})
		}
		c := &out[i]
		c.Devices, c.Old, c.New = append(c.Devices, d.Name), append(c.Old, p), append(c.New, d.Port)
	}
	return out
}
