package rings

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/remote"
)

// ringDev is one device of a ring, as the testbed wants it or as a builder
// holds it.
type ringDev struct {
	ID     int     `json:"id"` // builder's device id (-1 when not in the builder yet)
	Region int     `json:"region"`
	Zone   int     `json:"zone"`
	IP     string  `json:"ip"`
	Port   int     `json:"port"`
	Device string  `json:"device"`
	Weight float64 `json:"weight"`
	Host   string  `json:"-"` // testbed host name ("" for a builder's device)
}

// Key identifies a device across testbed and builder: address and name.
func (d ringDev) Key() string { return d.IP + "/" + d.Device }

// BuilderState is what a ring builder file holds, as dumped on the builder
// host (nil when the builder does not exist).
type BuilderState struct {
	PartPower    int       `json:"part_power"`
	Replicas     float64   `json:"replicas"`
	MinPartHours int       `json:"min_part_hours"`
	Devs         []ringDev `json:"devs"`
	RingFile     bool      `json:"ring_file"`    // the .ring.gz exists beside it
	RingCurrent  bool      `json:"ring_current"` // and holds what the builder would write
	DevsChanged  bool      `json:"devs_changed"` // devices changed since the last rebalance
}

// ringChange is what setup does to one ring on its builder host.
type ringChange struct {
	Ring      string     // ring name
	Args      [][]string // swift-ring-builder's argument lists, in order (builder file first)
	Changes   []string   // what they change, for the summary
	Rebalance bool       // a rebalance is among the commands
}

// Commands are c's swift-ring-builder invocations as shell lines.
func (c *ringChange) Commands() []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = srbLine(a)
	}
	return out
}

// srbLine is the shell line of swift-ring-builder with args.
func srbLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = remote.Quote(a)
	}
	return "swift-ring-builder " + strings.Join(quoted, " ")
}

// BuilderPath is the builder file of ring name in swift dir dir.
func BuilderPath(dir, name string) string { return path.Join(dir, name+".builder") }

// planRing compares the builder's state (nil: no builder) with the wanted
// devices and returns the commands that bring it there. A part power that
// differs is an error: changing it needs a new ring, which loses placement.
func planRing(dir string, r *plan.Ring, have *BuilderState, want []ringDev) (*ringChange, error) {
	b := BuilderPath(dir, r.Name)
	c := &ringChange{Ring: r.Name}
	srb := func(args ...string) { c.Args = append(c.Args, append([]string{b}, args...)) }
	if have == nil {
		srb("create", strconv.Itoa(r.PartPower), fmtFloat(r.Replicas), strconv.Itoa(r.MinPartHours))
		c.Changes = append(c.Changes, fmt.Sprintf("created (part power %d, %s replicas)", r.PartPower, fmtFloat(r.Replicas)))
		have = &BuilderState{PartPower: r.PartPower, Replicas: r.Replicas, MinPartHours: r.MinPartHours}
	}
	if have.PartPower != r.PartPower {
		return nil, fmt.Errorf("ring %s: the builder %s has part power %d, the testbed %d: a new part power needs a new ring (placement lost); remove the builder by hand to rebuild",
			r.Name, b, have.PartPower, r.PartPower)
	}
	if have.Replicas != r.Replicas {
		srb("set_replicas", fmtFloat(r.Replicas))
		c.Changes = append(c.Changes, fmt.Sprintf("replicas %s -> %s", fmtFloat(have.Replicas), fmtFloat(r.Replicas)))
		c.Rebalance = true
	}
	if have.MinPartHours != r.MinPartHours {
		srb("set_min_part_hours", strconv.Itoa(r.MinPartHours))
		c.Changes = append(c.Changes, fmt.Sprintf("min_part_hours %d -> %d", have.MinPartHours, r.MinPartHours))
	}
	c.diffDevs(srb, have.Devs, want)
	if have.DevsChanged && !c.Rebalance {
		c.Changes = append(c.Changes, "rebalance of earlier device changes")
		c.Rebalance = true
	}
	if c.Rebalance {
		// Exit 1 is a warning (e.g. min_part_hours kept partitions in
		// place); write_ring below makes the ring file current either way.
		srb("rebalance")
	}
	if len(c.Args) > 0 || !have.RingFile || !have.RingCurrent {
		srb("write_ring")
		if len(c.Changes) == 0 {
			c.Changes = append(c.Changes, "ring file written")
		}
	}
	return c, nil
}

// diffDevs appends the commands that add, remove, re-weight and re-port
// devices.
func (c *ringChange) diffDevs(srb func(...string), have, want []ringDev) {
	byKey := map[string]ringDev{}
	for _, d := range have {
		byKey[d.Key()] = d
	}
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w.Key()] = true
		h, ok := byKey[w.Key()]
		switch {
		case !ok:
			srb("add", "--region", strconv.Itoa(w.Region), "--zone", strconv.Itoa(w.Zone), "--ip", w.IP,
				"--port", strconv.Itoa(w.Port), "--device", w.Device, "--weight", fmtFloat(w.Weight))
			c.Changes = append(c.Changes, fmt.Sprintf("add %s:%d/%s (%s)", w.IP, w.Port, w.Device, w.Host))
			c.Rebalance = true
			continue
		case h.Weight != w.Weight:
			srb("set_weight", "d"+strconv.Itoa(h.ID), fmtFloat(w.Weight), "--yes")
			c.Changes = append(c.Changes, fmt.Sprintf("weight of %s/%s %s -> %s", w.IP, w.Device, fmtFloat(h.Weight), fmtFloat(w.Weight)))
			c.Rebalance = true
		}
		if h.Port != w.Port {
			p := strconv.Itoa(w.Port)
			srb("set_info", "--ip", h.IP, "--port", strconv.Itoa(h.Port), "--device", h.Device,
				"--change-port", p, "--change-replication-port", p, "--yes")
			c.Changes = append(c.Changes, fmt.Sprintf("port of %s/%s %d -> %d", w.IP, w.Device, h.Port, w.Port))
		}
	}
	for _, h := range sortedDevs(have) {
		if !wanted[h.Key()] {
			srb("remove", "d"+strconv.Itoa(h.ID), "--yes")
			c.Changes = append(c.Changes, fmt.Sprintf("remove %s:%d/%s", h.IP, h.Port, h.Device))
			c.Rebalance = true
		}
	}
}

func sortedDevs(devs []ringDev) []ringDev {
	out := append([]ringDev(nil), devs...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// parseDump decodes one line of dumpAllScript's output.
func parseDump(out string) (*BuilderState, error) {
	var s *BuilderState
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &s); err != nil {
		return nil, fmt.Errorf("reading the ring builder dump: %w", err)
	}
	return s, nil
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
