package compare

import (
	"benchbed/plan"
	"fmt"
	"strings"

	"benchbed/results/rundir"
)

// DiffRingLayouts compares two cells' ring layouts: per ring, the part of
// its description that changed ("ring object: one port per host (6200) ->
// one port per disk from 6210"), then per host the devices whose port
// changed ("ring object ports: stor1: d0..d3 6200 -> 6210..6213"), then any
// other device change.
func DiffRingLayouts(a, b *rundir.RingLayout) []string {
	var out []string
	for _, r := range a.Rings {
		if b.Find(r.Name) == nil {
			out = append(out, fmt.Sprintf("ring %s: only in A", r.Name))
		}
	}
	for i := range b.Rings {
		r := &b.Rings[i]
		o := a.Find(r.Name)
		if o == nil {
			out = append(out, fmt.Sprintf("ring %s: only in B", r.Name))
			continue
		}
		out = append(out, diffRing(o, r)...)
	}
	return out
}

// ringDevs is a ring's devices by "host/device", in their first order.
type ringDevs struct {
	keys []string
	devs map[string]rundir.RingDevice
}

func devsOf(r *rundir.Ring) ringDevs {
	d := ringDevs{devs: map[string]rundir.RingDevice{}}
	for _, dev := range r.Devices {
		k := dev.Host + "/" + dev.Device
		if _, dup := d.devs[k]; !dup {
			d.keys = append(d.keys, k)
		}
		d.devs[k] = dev
	}
	return d
}

// devText is a device as ring-ports.txt gives it: "ip:port/device weight".
func devText(d rundir.RingDevice) string {
	return fmt.Sprintf("%s:%d/%s %g", d.IP, d.Port, d.Device, d.Weight)
}

// diffRing compares one ring on both sides.
func diffRing(a, b *rundir.Ring) []string {
	var out []string
	if a.Desc() != b.Desc() {
		da, db := changedParts(a.Desc(), b.Desc())
		out = append(out, fmt.Sprintf("ring %s: %s -> %s", b.Name, da, db))
	}
	da, db := devsOf(a), devsOf(b)
	var hosts, other []string
	ports := map[string]*portRun{}
	for _, k := range db.keys {
		old, ok := da.devs[k]
		nw := db.devs[k]
		switch {
		case !ok:
			other = append(other, fmt.Sprintf("ring %s: %s %s only in B", b.Name, nw.Host, nw.Device))
		case old == nw:
		case old.IP != nw.IP || old.Weight != nw.Weight:
			other = append(other, fmt.Sprintf("ring %s: %s %s -> %s", b.Name, nw.Host, devText(old), devText(nw)))
		default:
			if ports[nw.Host] == nil {
				hosts = append(hosts, nw.Host)
				ports[nw.Host] = &portRun{}
			}
			pr := ports[nw.Host]
			pr.devs, pr.old, pr.new = append(pr.devs, nw.Device), append(pr.old, old.Port), append(pr.new, nw.Port)
		}
	}
	for _, k := range da.keys {
		if _, ok := db.devs[k]; !ok {
			d := da.devs[k]
			other = append(other, fmt.Sprintf("ring %s: %s %s only in A", a.Name, d.Host, d.Device))
		}
	}
	return append(append(out, portLines(b.Name, hosts, ports)...), other...)
}

// portLines gives one line per group of hosts whose devices' ports
// changed alike: "ring object ports: stor1, stor2: d0..d3 6200 -> 6210..6213".
func portLines(ring string, hosts []string, ports map[string]*portRun) []string {
	var changes []string
	byChange := map[string][]string{}
	for _, h := range hosts {
		pr := ports[h]
		ch := fmt.Sprintf("%s %s -> %s", plan.SpanNames(pr.devs), plan.SpanNums(pr.old), plan.SpanNums(pr.new))
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
