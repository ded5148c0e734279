package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// RingLayout is a cell's ring layout as data (ring-layout.json): the port
// of every ring device in the cell's variant.
type RingLayout struct {
	Variant string `json:"variant"`
	Rings   []Ring `json:"rings"` // in the testbed's ring order
}

// Ring is one ring's devices in a variant.
type Ring struct {
	Name      string       `json:"name"`
	PartPower int          `json:"part_power"`
	Replicas  float64      `json:"replicas"`
	Mode      string       `json:"mode"`    // "one port per host (6200)" or "one port per disk from 6210"
	Devices   []RingDevice `json:"devices"` // hosts in declaration order, disks in group order
}

// RingDevice is one ring device.
type RingDevice struct {
	Host   string  `json:"host"`
	IP     string  `json:"ip"`
	Device string  `json:"device"` // the disk's name: /srv/node/<Device>
	Port   int     `json:"port"`
	Weight float64 `json:"weight"`
}

// Desc describes the ring: "part_power 8, replicas 2, one port per host (6200)".
func (r *Ring) Desc() string {
	return fmt.Sprintf("part_power %d, replicas %g, %s", r.PartPower, r.Replicas, r.Mode)
}

// Find returns the ring named name, or nil.
func (l *RingLayout) Find(name string) *Ring {
	for i := range l.Rings {
		if l.Rings[i].Name == name {
			return &l.Rings[i]
		}
	}
	return nil
}

// WriteRingLayout writes the ring layout of cell id, ring-layout.json.
func (r *Run) WriteRingLayout(id string, l *RingLayout) error {
	dir, err := r.CellDir(id)
	if err != nil {
		return err
	}
	return WriteJSONFile(filepath.Join(dir, RingLayoutFile), l)
}

// ReadRingLayout reads the ring layout recorded in a cell's directory:
// ring-layout.json, or for a run older than it the text of ring-ports.txt.
func ReadRingLayout(cellDir string) (*RingLayout, error) {
	p := filepath.Join(cellDir, RingLayoutFile)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return readRingPorts(filepath.Join(cellDir, RingPortsFile))
	}
	if err != nil {
		return nil, err
	}
	var l RingLayout
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &l, nil
}

// readRingPorts reads the ring-ports.txt of a run older than
// ring-layout.json: "# ring NAME: DESC" headers, then "host ip:port/device
// weight" lines; other lines are comments and blank lines.
func readRingPorts(p string) (*RingLayout, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	l := &RingLayout{}
	var cur *Ring
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "# ring "); ok {
			if name, desc, ok := strings.Cut(rest, ": "); ok && !strings.Contains(name, " ") {
				l.Rings = append(l.Rings, ringOfDesc(name, desc))
				cur = &l.Rings[len(l.Rings)-1]
			}
			continue
		}
		if f := strings.Fields(line); cur != nil && len(f) >= 2 && !strings.HasPrefix(line, "#") {
			cur.Devices = append(cur.Devices, deviceOfText(f))
		}
	}
	return l, nil
}

// ringOfDesc reads "part_power 8, replicas 2, MODE"; what is not a part
// power or a replica count is the mode.
func ringOfDesc(name, desc string) Ring {
	r := Ring{Name: name}
	var mode []string
	for _, part := range strings.Split(desc, ", ") {
		if v, ok := strings.CutPrefix(part, "part_power "); ok {
			if n, err := strconv.Atoi(v); err == nil {
				r.PartPower = n
				continue
			}
		}
		if v, ok := strings.CutPrefix(part, "replicas "); ok {
			if n, err := strconv.ParseFloat(v, 64); err == nil {
				r.Replicas = n
				continue
			}
		}
		mode = append(mode, part)
	}
	r.Mode = strings.Join(mode, ", ")
	return r
}

// deviceOfText reads the fields of "host ip:port/device weight".
func deviceOfText(f []string) RingDevice {
	d := RingDevice{Host: f[0]}
	addr, dev, _ := strings.Cut(f[1], "/")
	d.Device = dev
	d.IP = addr
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		if port, err := strconv.Atoi(addr[i+1:]); err == nil {
			d.IP, d.Port = addr[:i], port
		}
	}
	if len(f) > 2 {
		d.Weight, _ = strconv.ParseFloat(f[2], 64)
	}
	return d
}
