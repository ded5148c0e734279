package compare

import (
	"fmt"
	"strconv"
	"strings"

	"benchbed/results"
)

// ringText is one ring of a ring-ports.txt: its description ("part_power
// 8, replicas 2, one port per host (6200)") and devices in file order.
type ringText struct {
	name, desc string
	devs       []string          // "host/device", in order
	lines      map[string]string // "host/device" -> "ip:port/device weight"
}

// parseRingPorts reads the text of plan's Layout: "# ring NAME: DESC"
// headers, then "host ip:port/device weight" lines. Other lines are
// comments and blank lines.
func parseRingPorts(text string) []*ringText {
	var rings []*ringText
	var cur *ringText
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(l, "# ring "); ok {
			if name, desc, ok := strings.Cut(rest, ": "); ok && !strings.Contains(name, " ") {
				cur = &ringText{name: name, desc: desc, lines: map[string]string{}}
				rings = append(rings, cur)
			}
			continue
		}
		f := strings.Fields(l)
		if cur == nil || len(f) < 2 || strings.HasPrefix(l, "#") {
			continue
		}
		_, dev, _ := strings.Cut(f[1], "/")
		k := f[0] + "/" + dev
		if _, dup := cur.lines[k]; !dup {
			cur.devs = append(cur.devs, k)
		}
		cur.lines[k] = strings.Join(f[1:], " ")
	}
	return rings
}

func findRing(rs []*ringText, name string) *ringText {
	for _, r := range rs {
		if r.name == name {
			return r
		}
	}
	return nil
}

// DiffRingPorts compares two cells' ring-ports.txt: per ring, the part of
// its description that changed ("ring object: one port per host (6200) ->
// one port per disk from 6210"), then per host the devices whose port
// changed ("ring object ports: stor1: d0..d3 6200 -> 6210..6213"), then any
// other device change.
func DiffRingPorts(a, b string) []string {
	ra, rb := parseRingPorts(a), parseRingPorts(b)
	var out []string
	for _, r := range ra {
		if findRing(rb, r.name) == nil {
			out = append(out, fmt.Sprintf("ring %s: only in A", r.name))
		}
	}
	for _, r := range rb {
		o := findRing(ra, r.name)
		if o == nil {
			out = append(out, fmt.Sprintf("ring %s: only in B", r.name))
			continue
		}
		out = append(out, diffRing(o, r)...)
	}
	return out
}

// diffRing compares one ring on both sides.
func diffRing(a, b *ringText) []string {
	var out []string
	if a.desc != b.desc {
		da, db := changedParts(a.desc, b.desc)
		out = append(out, fmt.Sprintf("ring %s: %s -> %s", b.name, da, db))
	}
	var hosts []string
	ports := map[string]*portRun{}
	var other []string
	for _, k := range b.devs {
		old, ok := a.lines[k]
		host, dev, _ := strings.Cut(k, "/")
		switch {
		case !ok:
			other = append(other, fmt.Sprintf("ring %s: %s %s only in B", b.name, host, dev))
		case old == b.lines[k]:
		default:
			po, rest0 := splitPort(old)
			pn, rest1 := splitPort(b.lines[k])
			if po < 0 || pn < 0 || rest0 != rest1 {
				other = append(other, fmt.Sprintf("ring %s: %s %s -> %s", b.name, host, old, b.lines[k]))
				continue
			}
			if ports[host] == nil {
				hosts = append(hosts, host)
				ports[host] = &portRun{}
			}
			pr := ports[host]
			pr.devs, pr.old, pr.new = append(pr.devs, dev), append(pr.old, po), append(pr.new, pn)
		}
	}
	for _, k := range a.devs {
		if _, ok := b.lines[k]; !ok {
			host, dev, _ := strings.Cut(k, "/")
			other = append(other, fmt.Sprintf("ring %s: %s %s only in A", a.name, host, dev))
		}
	}
	return append(append(out, portLines(b.name, hosts, ports)...), other...)
}

// portLines gives one line per group of hosts whose devices' ports
// changed alike: "ring object ports: stor1, stor2: d0..d3 6200 -> 6210..6213".
func portLines(ring string, hosts []string, ports map[string]*portRun) []string {
	var changes []string
	byChange := map[string][]string{}
	for _, h := range hosts {
		pr := ports[h]
		ch := fmt.Sprintf("%s %s -> %s", results.NameSpan(pr.devs), results.NumSpan(pr.old), results.NumSpan(pr.new))
		if byChange[ch] == nil {
			changes = append(changes, ch)
		}
		byChange[ch] = append(byChange[ch], h)
	}
	out := make([]string, len(changes))
	for i, ch := range changes {
		out[i] = fmt.Sprintf("ring %s ports: %s: %s", ring, strings.Join(byChange[ch], ", "), ch)
	}
	return out
}

// portRun is one host's devices whose port changed.
type portRun struct {
	devs     []string
	old, new []int
}

// splitPort takes the port out of "ip:port/device weight": the port (-1
// when there is none) and the rest, to compare.
func splitPort(s string) (int, string) {
	addr, rest, _ := strings.Cut(s, "/")
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return -1, s
	}
	p, err := strconv.Atoi(addr[i+1:])
	if err != nil {
		return -1, s
	}
	return p, addr[:i] + "/" + rest
}

// changedParts keeps the comma-separated parts that differ.
func changedParts(a, b string) (string, string) {
	pa, pb := strings.Split(a, ", "), strings.Split(b, ", ")
	if len(pa) != len(pb) {
		return a, b
	}
	var ka, kb []string
	for i := range pa {
		if pa[i] != pb[i] {
			ka, kb = append(ka, pa[i]), append(kb, pb[i])
		}
	}
	return strings.Join(ka, ", "), strings.Join(kb, ", ")
}
