package plan

import (
	"fmt"
	"strings"
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
	return fmt.Sprintf("%s: %s %s -> %s", c.Host, span(c.Devices), portSpan(c.Old), portSpan(c.New))
}

// DiffLayouts returns the ring port changes from a to b, per ring and host,
// and the rings whose mode changed ("object: one port per host (6200) -> one
// port per disk from 6210").
func DiffLayouts(a, b *Layout) (modes []string, changes []PortChange) {
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
func ringPortChanges(ra, rb *RingLayout) []PortChange {
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

// span gives "d0..d31" when names is a run of one prefix and consecutive
// numbers, else the names joined with commas.
func span(names []string) string {
	if len(names) > 2 {
		p0, n0 := splitNum(names[0])
		run := n0 >= 0
		for i := 1; run && i < len(names); i++ {
			p, n := splitNum(names[i])
			run = p == p0 && n == n0+i
		}
		if run {
			return names[0] + ".." + names[len(names)-1]
		}
	}
	return strings.Join(names, ",")
}

func splitNum(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n := -1
	if i < len(s) {
		fmt.Sscanf(s[i:], "%d", &n)
	}
	return s[:i], n
}

// portSpan gives "6200" when all ports are equal, "6210..6241" for a run of
// consecutive ports, else every port.
func portSpan(ports []int) string {
	same, run := true, true
	for i := 1; i < len(ports); i++ {
		same = same && ports[i] == ports[0]
		run = run && ports[i] == ports[i-1]+1
	}
	switch {
	case len(ports) == 0:
		return ""
	case same:
		return fmt.Sprint(ports[0])
	case run:
		return fmt.Sprintf("%d..%d", ports[0], ports[len(ports)-1])
	}
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = fmt.Sprint(p)
	}
	return strings.Join(s, ",")
}
