package rings

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/remote"
)

// Prepared is every ring's files for each port layout a sweep switches
// to, made once before its cells from the builder host's builders (Swift's
// own RingBuilder writes them, in one Python process) and kept here: a
// cell's ring step then only checks the builder host's files against the
// states it knows and uploads the layout's, without a Python start.
type Prepared struct {
	// Rings are the testbed's rings in its order; a ring without a builder
	// or with a change beyond ports is absent (the cell's ring step then
	// dumps and switches as before, and refuses it).
	Rings map[string]*PreparedRing
}

// PreparedRing is one ring's files: as found, and for each layout.
type PreparedRing struct {
	Name        string
	BuilderPath string
	RingPath    string
	Found       LayoutFiles             // the builder and ring as the builder host held them
	ByLayout    map[string]*LayoutFiles // by layout key (the found files for a layout with their ports)
}

// FileSums are the sha256 of a ring's builder and ring file.
type FileSums struct {
	Builder, Ring string // sha256, hex
}

// LayoutFiles are a ring's files for one layout.
type LayoutFiles struct {
	Builder, Ring []byte
	Sums          FileSums
	devs          []ringDev // the devices and their ports
}

// LayoutKey names a layout by the ports its rings' devices have: two
// variants with the same ports share their prepared files.
func LayoutKey(tb *plan.Testbed, l *plan.Layout) string {
	var b strings.Builder
	for _, r := range tb.Rings {
		b.WriteString(r.Name + ":")
		for _, d := range layoutDevs(tb, l.Ring(r.Name)) {
			fmt.Fprintf(&b, "%s=%d,", d.Key(), d.Port)
		}
		b.WriteString(";")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// PrepareLayouts reads every ring's builder on the builder host
// (DumpRings) and makes, in one Python process (prepareScript), each ring's
// builder and ring file for each of layouts whose ports differ from the
// builder's, refusing none: a ring whose builder is missing or differs in
// more than ports, or whose switch would move partitions, is left out of
// the result for the cell's own switch to refuse with its reason.
func PrepareLayouts(ctx context.Context, r cluster.Runner, tb *plan.Testbed, builder string, layouts []*plan.Layout) (*Prepared, error) {
	states, err := DumpRings(ctx, r, tb, builder)
	if err != nil {
		return nil, err
	}
	out := &Prepared{Rings: map[string]*PreparedRing{}}
	var spec []prepareRing
	for i, rg := range tb.Rings {
		pr, s := prepareSpec(tb, rg, states[i], layouts)
		if pr == nil {
			continue
		}
		out.Rings[rg.Name] = pr
		spec = append(spec, s)
	}
	if len(spec) == 0 {
		return out, nil
	}
	res, err := r.Run(remote.Quiet(ctx), builder, prepareScript(spec))
	if err != nil {
		return nil, err
	}
	var made []prepareResult
	if err := json.Unmarshal(res.Stdout, &made); err != nil || len(made) != len(spec) {
		return nil, fmt.Errorf("reading the rings' prepared layouts (%d bytes): %v", len(res.Stdout), err)
	}
	for i, m := range made {
		out.Rings[spec[i].Name].adopt(m, spec[i])
	}
	return out, nil
}

// prepareSpec is ring rg's part of the script's input, and its
// PreparedRing (nil: the cell's own switch handles it, as for a ring whose
// every layout has the builder's ports).
func prepareSpec(tb *plan.Testbed, rg *plan.Ring, have *BuilderState, layouts []*plan.Layout) (*PreparedRing, prepareRing) {
	s := prepareRing{Name: rg.Name, Builder: BuilderPath(cluster.SwiftDir, rg.Name), Ring: path.Join(cluster.SwiftDir, rg.Name+".ring.gz")}
	if have == nil || !have.RingFile || !have.RingCurrent {
		return nil, s
	}
	pr := &PreparedRing{Name: rg.Name, BuilderPath: s.Builder, RingPath: s.Ring, ByLayout: map[string]*LayoutFiles{},
		Found: LayoutFiles{devs: have.Devs}}
	for _, l := range layouts {
		key := LayoutKey(tb, l)
		if _, seen := pr.ByLayout[key]; seen {
			continue
		}
		want := layoutDevs(tb, l.Ring(rg.Name))
		c, err := planRing(cluster.SwiftDir, rg, have, want)
		if err != nil || c.Rebalance {
			return nil, s
		}
		pr.ByLayout[key] = nil // the found files, once known (adopt)
		if len(c.Args) == 0 {
			continue
		}
		ports := map[string]int{}
		for _, w := range want {
			ports[w.Key()] = w.Port
		}
		s.Layouts = append(s.Layouts, prepareLayout{Key: key, Ports: ports, devs: want})
	}
	if len(s.Layouts) == 0 {
		return nil, s
	}
	return pr, s
}

// adopt keeps the script's outcome m for the ring: the found files, and
// each layout whose switch kept the partition assignment (one that moved
// it is dropped: the cell's own switch refuses it, saying why).
func (p *PreparedRing) adopt(m prepareResult, s prepareRing) {
	p.Found.Builder, p.Found.Ring = m.Builder, m.Ring
	p.Found.Sums = FileSums{Builder: sum(m.Builder), Ring: sum(m.Ring)}
	for key, l := range p.ByLayout {
		if l == nil {
			p.ByLayout[key] = &p.Found
		}
	}
	for i, l := range m.Layouts {
		if i >= len(s.Layouts) {
			break
		}
		key := s.Layouts[i].Key
		if !l.Same {
			delete(p.ByLayout, key)
			continue
		}
		f := &LayoutFiles{Builder: l.Builder, Ring: l.Ring, devs: s.Layouts[i].devs}
		f.Sums = FileSums{Builder: sum(l.Builder), Ring: sum(l.Ring)}
		p.ByLayout[key] = f
	}
}

// Switch is what brings the ring from the files live (their sums, as
// LiveFiles read them) to layout key's: the files to write (nil when live
// is that layout's already) and the port changes, for the log. ok is false
// when live is neither the found files nor a prepared layout's (something
// else changed them), or the layout was not prepared.
func (p *PreparedRing) Switch(live FileSums, key string) (to *LayoutFiles, changes []string, ok bool) {
	to = p.ByLayout[key]
	from := p.state(live)
	if to == nil || from == nil {
		return nil, nil, false
	}
	if from.Sums == to.Sums {
		return nil, nil, true
	}
	return to, portChanges(from.devs, to.devs), true
}

// state is the known files with sums live (nil: none).
func (p *PreparedRing) state(live FileSums) *LayoutFiles {
	if live == p.Found.Sums {
		return &p.Found
	}
	for _, l := range p.ByLayout {
		if l.Sums == live {
			return l
		}
	}
	return nil
}

// portChanges are the port changes from devices from to devices to, in
// to's order, as setup's summary words them.
func portChanges(from, to []ringDev) []string {
	port := map[string]int{}
	for _, d := range from {
		port[d.Key()] = d.Port
	}
	var out []string
	for _, d := range to {
		if p, ok := port[d.Key()]; ok && p != d.Port {
			out = append(out, fmt.Sprintf("port of %s/%s %d -> %d", d.IP, d.Device, p, d.Port))
		}
	}
	return out
}

// LiveFiles reads the sha256 of each ring's builder and ring file on the
// builder host, in one command, in rs's order.
func LiveFiles(ctx context.Context, r cluster.Runner, builder string, rs []*PreparedRing) ([]FileSums, error) {
	var paths []string
	for _, p := range rs {
		paths = append(paths, remote.Quote(p.BuilderPath), remote.Quote(p.RingPath))
	}
	res, err := r.Run(remote.Quiet(ctx), builder, "sha256sum "+strings.Join(paths, " "))
	if err != nil {
		return nil, err
	}
	fields := strings.Fields(string(res.Stdout))
	if len(fields) != 2*len(paths) {
		return nil, fmt.Errorf("sha256sum of %d ring files printed %q", len(paths), res.Stdout)
	}
	out := make([]FileSums, len(rs))
	for i := range out {
		out[i] = FileSums{Builder: fields[4*i], Ring: fields[4*i+2]}
	}
	return out, nil
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// prepareRing and prepareLayout are the script's input.
type prepareRing struct {
	Name    string          `json:"name"`
	Builder string          `json:"builder"`
	Ring    string          `json:"ring"`
	Layouts []prepareLayout `json:"layouts"`
}

type prepareLayout struct {
	Key   string         `json:"key"`
	Ports map[string]int `json:"ports"`
	devs  []ringDev
}

// prepareResult is the script's output for one ring.
type prepareResult struct {
	Builder []byte `json:"builder"` // base64 in the JSON
	Ring    []byte `json:"ring"`
	Layouts []struct {
		Same    bool   `json:"same"`
		Builder []byte `json:"builder"` // base64 in the JSON
		Ring    []byte `json:"ring"`
	} `json:"layouts"`
}

// prepareScript writes, for every ring of spec and each of its layouts,
// the builder with each device's port and replication port set to the
// layout's (no rebalance) and its ring file into a temporary directory
// removed before it exits, and prints as JSON each ring's found files
// (base64), and per layout whether the partition
// assignment is the one found, and the files (base64). The live files are
// only read.
func prepareScript(spec []prepareRing) string {
	b, _ := json.Marshal(spec)
	return `/usr/bin/python3 - ` + remote.Quote(string(b)) + ` <<'PY'
import base64, hashlib, json, os, shutil, sys, tempfile
` + portsPy + `
def read(p):
    with open(p, "rb") as f:
        return f.read()
out, tmp = [], tempfile.mkdtemp(prefix="benchbed-rings-")
try:
    for r in json.loads(sys.argv[1]):
        before = assignment(r["ring"])
        res = {"builder": base64.b64encode(read(r["builder"])).decode(),
               "ring": base64.b64encode(read(r["ring"])).decode(), "layouts": []}
        for l in r["layouts"]:
            b = RingBuilder.load(r["builder"])
            set_ports(b, l["ports"])
            # The live files' names: the ring file's gzip header holds it.
            bf, rf = os.path.join(tmp, os.path.basename(r["builder"])), os.path.join(tmp, os.path.basename(r["ring"]))
            b.save(bf)
            b.get_ring().save(rf)
            res["layouts"].append({"same": assignment(rf) == before,
                                   "builder": base64.b64encode(read(bf)).decode(),
                                   "ring": base64.b64encode(read(rf)).decode()})
        out.append(res)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print(json.dumps(out))
PY`
}
