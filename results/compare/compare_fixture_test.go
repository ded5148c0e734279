package compare

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// fixCell is a crafted cell: its figures and what its directory records.
type fixCell struct {
	variant   string
	repeat    int
	reqPerS   float64
	p50       float64
	perSecond []int64
	workers   string  // object-server.conf [DEFAULT] workers on stor1 and stor2
	spp       string  // servers_per_port, idem
	ports     int     // ring object port of stor1's and stor2's devices
	perDisk   bool    // one port per disk from ports
	mbps      float64 // > 0: a command workload's cell, its throughput in MB/s and no operations
	tel       *telemetry.CellSummary
}

// cell returns a crafted Cell of one GET operation type.
func (f fixCell) cell(index int) results.Cell {
	op := results.OpSummary{Count: int64(f.reqPerS * 10), ReqPerS: f.reqPerS,
		FirstByte: results.Stats{P50: f.p50, P99: f.p50 * 3}, LastByte: results.Stats{P50: f.p50 * 1.1, P99: f.p50 * 3.3}}
	c := results.Cell{ID: fmt.Sprintf("%03d-%s-64K_get-r%d", index, rundir.SafeName(f.variant), f.repeat), Variant: f.variant,
		Workload: "64K_get", Repeat: f.repeat, Status: "ok", DurationS: 10, Ops: map[string]results.OpSummary{"GET": op},
		Total: op, PerSecond: f.perSecond, Telemetry: f.tel}
	if f.mbps > 0 {
		c.Ops, c.Total, c.PerSecond = map[string]results.OpSummary{}, results.OpSummary{}, nil
		c.Metrics = map[string]results.Figure{"throughput": {Value: f.mbps, Unit: "MB/s", PerCopy: []float64{f.mbps}, How: "sum"}}
	}
	return c
}

// fixRun crafts a run directory under t.TempDir(): every cell's
// cell.json, confs and ring-ports.txt, the testbed file, and summary.json
// unless killed.
func fixRun(t *testing.T, name, testbed string, killed bool, cells ...fixCell) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	sum := results.Summary{Run: name, Testbed: "lab"}
	for i, f := range cells {
		c := f.cell(i + 1)
		sum.Cells = append(sum.Cells, c)
		cd := filepath.Join(dir, rundir.CellsDir, c.ID)
		cmpJSON(t, filepath.Join(cd, rundir.CellFile), c)
		for _, h := range []string{"stor1", "stor2"} {
			cmpFile(t, filepath.Join(cd, rundir.ConfsDir, h, "etc/swift/object-server.conf"),
				fmt.Sprintf("[DEFAULT]\n# comment\nworkers = %s\nservers_per_port = %s\n\n[app:object-server]\nuse = egg:swift#object\n", f.workers, f.spp))
			cmpFile(t, filepath.Join(cd, rundir.ConfsDir, h, "etc/swift/swift.conf"), "[swift-hash]\nswift_hash_path_suffix = ****\n")
		}
		cmpFile(t, filepath.Join(cd, rundir.ConfsDir, "ring-layout.txt"), "# variant "+f.variant+"\n")
		cmpFile(t, filepath.Join(cd, rundir.RingPortsFile), fixRingPorts(f))
	}
	cmpFile(t, filepath.Join(dir, rundir.TestbedFile), testbed)
	cmpFile(t, filepath.Join(dir, rundir.EnvDir, "stor1.txt"), "\n## kernel\nLinux 6.1\n\n## swift\nswift 2.30.1\n")
	if !killed {
		cmpJSON(t, filepath.Join(dir, rundir.SummaryFile), sum)
	}
	return dir
}

func fixRingPorts(f fixCell) string {
	s := fmt.Sprintf("# ring layout of variant %q: host ip:port/device weight\n\n", f.variant)
	mode := fmt.Sprintf("one port per host (%d)", f.ports)
	if f.perDisk {
		mode = fmt.Sprintf("one port per disk from %d", f.ports)
	}
	s += "# ring object: part_power 8, replicas 2, " + mode + "\n"
	for d := range 4 {
		p := f.ports
		if f.perDisk {
			p += d
		}
		s += fmt.Sprintf("stor1 198.18.0.21:%d/d%d 100\n", p, d)
	}
	return s + "\n# ring account: part_power 8, replicas 2, one port per host (6202)\nstor1 198.18.0.21:6202/m0 100\n"
}

func cmpJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	cmpFile(t, path, string(b))
}

func cmpFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o640); err != nil {
		t.Fatal(err)
	}
}

// fixSteady returns n per-second counts around rate, varying by +-spread.
func fixSteady(n int, rate, spread int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = rate + int64(i%3-1)*spread
	}
	return out
}

// fixNormal and fixSPP1 are the seed's two variants, as a sweep records them.
func fixNormal(repeat int, req float64) fixCell {
	return fixCell{variant: "normal", repeat: repeat, reqPerS: req, p50: 0.03, perSecond: fixSteady(12, int64(req), 5),
		workers: "2", spp: "0", ports: 6200}
}

func fixSPP1(repeat int, req float64) fixCell {
	return fixCell{variant: "servers_per_port=1", repeat: repeat, reqPerS: req, p50: 0.04, perSecond: fixSteady(12, int64(req), 5),
		workers: "2", spp: "1", ports: 6210, perDisk: true}
}
