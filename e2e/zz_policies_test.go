package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/e2e/labkit"
	"benchbed/results"
)

// TestPolicies: setup of testbeds/lab/policies-lab.hcl over the lab as the
// tests before it left it (lab.hcl's cluster; alone, the bare lab), twice
// (the second changes nothing), leaves every policy's ring the same on
// every Swift host and a second proxy on stor2 that answers a round
// trip; one sweep of it (variant normal, 3 s runs, 4 s for the large
// objects, no warm-up; replication 2x and EC 4+2) gives the replicated and
// the erasure-coded GET and PUT cells side by side, every one ok with 0
// errors and its GETs verified, the proxies' CPU in the report, and the
// lab's confs, rings and builders as before. The GET cells spread their
// agents over both proxies: each records both endpoints with their
// counts, req/s, no error and percentiles, adding up to the cell, the
// report has their rows and compare of the rep2 and ec42 GET cells their
// per-endpoint table. The large-object cell (4 MiB static large objects
// in 1 MiB segments, EC 4+2) PUTs, GETs and DELETEs whole objects, its
// last byte after its first, and leaves no segment whose manifest is
// gone. Then the .data files of the replicated objects are changed on the
// storage hosts' disks behind Swift's back, and a verified read of them
// counts `corrupt` errors instead of successes. It leaves the lab
// spoiled (spoilLab): its swift.conf keeps the EC policies, which lab.hcl
// drops (setup would refuse it), so a test after it would have the lab
// taken down and up again; that is why its file sorts last, where Main's
// down at the binary's end (checked to leave nothing) is the only one.
// Setting up from bare hosts is TestLab's. It logs its time, by phase and
// the sweep's by step.
func TestPolicies(t *testing.T) {
	start := time.Now()
	lab := Lab(t)
	t.Cleanup(func() {
		spoilLab()
		t.Logf("TestPolicies took %.0f s", time.Since(start).Seconds())
	})
	tb := policiesTestbed(t, lab)
	t.Logf("bare lab at %.0f s", time.Since(start).Seconds())
	out, errOut, err := lab.Benchbed(t, "setup", "-q", tb)
	if err != nil {
		t.Fatalf("benchbed setup: %v\n%s\n%s", err, out, errOut)
	}
	if !hasLine(out, "stor2: ", "auth, PUT, GET, DELETE ok") {
		t.Errorf("setup made no round trip through stor2's proxy:\n%s", out)
	}
	t.Logf("setup done at %.0f s", time.Since(start).Seconds())
	out, errOut, err = lab.Benchbed(t, "setup", "-q", tb)
	if err != nil || !strings.Contains(out, "setup: no change; the cluster is healthy") {
		t.Fatalf("second benchbed setup (%v) changed something:\n%s\n%s", err, out, errOut)
	}
	before := labFiles(t, lab)
	checkPolicyRings(t, before)
	t.Logf("setup again (no change) done at %.0f s", time.Since(start).Seconds())
	runs := t.TempDir()
	out, errOut, err = lab.Benchbed(t, "sweep", "--runs-dir", runs, "--only", "normal", tb)
	if err != nil {
		t.Fatalf("sweep: %v\n%s\n%s", err, out, errOut)
	}
	if after := labFiles(t, lab); after != before {
		t.Errorf("the lab's confs, rings and builders differ after the sweep:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	t.Logf("sweep done at %.0f s:\n%s", time.Since(start).Seconds(), out)
	dirs, _ := filepath.Glob(filepath.Join(runs, "*", "*"))
	if len(dirs) != 1 {
		t.Fatalf("run directories %v", dirs)
	}
	logStepTimes(t, dirs[0])
	sum := readSummary(t, dirs[0])
	by := checkPolicyCells(t, sum)
	checkEndpointCells(t, by)
	report := checkProxyCPUReported(t, lab, dirs[0])
	checkEndpointReport(t, report, by)
	checkEndpointCompare(t, lab, dirs[0], by)
	checkSegments(t)
	checkCorruptCounted(t, lab, filepath.Dir(tb))
	t.Logf("checks done at %.0f s", time.Since(start).Seconds())
}

// checkPolicyRings wants each policy's ring (object, object-1, object-2)
// on every Swift host, the same file on all of them, and swift.conf's
// policies 1 and 2 erasure-coded.
func checkPolicyRings(t *testing.T, files string) {
	t.Helper()
	sums := map[string]map[string]bool{}
	for _, l := range strings.Split(files, "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && strings.HasSuffix(f[1], ".ring.gz") {
			if sums[f[1]] == nil {
				sums[f[1]] = map[string]bool{}
			}
			sums[f[1]][f[0]] = true
		}
	}
	for _, r := range []string{"object", "object-1", "object-2"} {
		if s := sums[r+".ring.gz"]; len(s) != 1 || strings.Count(files, " "+r+".ring.gz\n") != 3 {
			t.Errorf("ring %s: %d distinct files, want one on each of the 3 Swift hosts:\n%s", r, len(s), files)
		}
	}
}

// policiesTestbed is policies-lab.hcl with replication 2x and EC 4+2 only,
// 3 s runs of 8 users (4 s for the large objects) without a warm-up, 50
// initial objects per GET policy, and 2 large objects of 4 MiB in 1 MiB
// segments (four segments, as the shipped 64 MiB in 8 MiB has eight),
// created, read and deleted in 1:2:1 by 8 users: at the 1.7 req/s of 16
// MiB objects by 4 users under load, a 4 s run had a one-in-five chance of
// no DELETE at all; at 4 MiB and 8 users the operations are several times
// as many and a DELETE one in four.
func policiesTestbed(t *testing.T, lab *Env) string {
	t.Helper()
	s, err := labkit.Inlined(filepath.Join(filepath.Dir(lab.Testbed), "policies-lab.hcl"))
	must(t, err)
	for _, e := range [][2]string{
		{`policies = ["rep2", "ec42", "ec62"]`, `policies = ["rep2", "ec42"]`},
		{`"64KiB" = 500`, `"64KiB" = 50`},
		{`duration = "15s"`, `duration = "3s"`},
		{`duration = "20s"`, `duration = "4s"`},
		{`users    = 16`, `users    = 8`},
		{`user_count     = 16`, `user_count     = 8`},
		{`warmup     = "3s"`, `warmup     = "0s"`},
		{`67108864`, `4194304`},
		{`segment_size   = 8388608`, `segment_size   = 1048576`},
		{`"64MiB" = 8`, `"4MiB" = 2`},
		{`"64MiB"`, `"4MiB"`},
		{`64M_slo@ec42`, `4M_slo@ec42`},
		{`crud_profile   = [1, 3, 0, 1]`, `crud_profile   = [1, 2, 0, 1]`},
		{`users    = 4`, `users    = 8`},
		{`user_count     = 4`, `user_count     = 8`},
	} {
		if !strings.Contains(s, e[0]) {
			t.Fatalf("policies-lab.hcl has no %q: the test's edit needs updating", e[0])
		}
		s = strings.ReplaceAll(s, e[0], e[1])
	}
	p := filepath.Join(t.TempDir(), "policies-lab.hcl")
	must(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

// policyCells are the sweep's cells: the GET and PUT workloads per policy
// and the large objects.
var policyCells = []string{"64K_get@rep2", "64K_get@ec42", "64K_put@rep2", "64K_put@ec42", "4M_slo@ec42"}

// checkPolicyCells wants every cell ok with 0 errors, GETs in the GET and
// large cells, and the large objects' whole-object latency; it logs the
// rep vs EC table with the proxy's CPU.
func checkPolicyCells(t *testing.T, sum results.Summary) map[string]results.Cell {
	t.Helper()
	by := map[string]results.Cell{}
	for _, c := range sum.Cells {
		by[c.Workload] = c
	}
	var tab strings.Builder
	fmt.Fprintf(&tab, "%-14s %9s %12s %12s %7s %10s %14s\n", "workload", "req/s", "ttfb p50 ms", "ttfb p99 ms", "errors", "proxy CPU%", "proxy CPU%/100 req/s")
	for _, w := range policyCells {
		c, ok := by[w]
		if !ok {
			t.Fatalf("no cell of workload %s in summary.json (cells %v)", w, sum.Cells)
		}
		if c.Status != results.StatusOK || c.Total.Count == 0 || c.Total.Errors != 0 {
			t.Errorf("cell %s: status %s, %d ok, %d errors %v, want ok without error", c.ID, c.Status, c.Total.Count, c.Total.Errors, c.Total.ErrorsBy)
		}
		if !strings.Contains(w, "_put") && c.Ops["GET"].Count == 0 {
			t.Errorf("cell %s: no GET: %+v", c.ID, c.Ops)
		}
		cpu := proxyCPU(c)
		fmt.Fprintf(&tab, "%-14s %9.1f %12.1f %12.1f %7d %10.1f %14.2f\n", w, c.Total.ReqPerS, c.Total.FirstByte.P50*1000,
			c.Total.FirstByte.P99*1000, c.Total.Errors, cpu, 100*cpu/max(c.Total.ReqPerS, 1e-9))
	}
	t.Logf("rep vs EC (variant normal):\n%s", tab.String())
	large := by["4M_slo@ec42"]
	for _, op := range []string{"PUT", "GET", "DELETE"} {
		o := large.Ops[op]
		if o.Count == 0 || o.Errors != 0 {
			t.Errorf("large objects: %s %+v, want some and no error", op, o)
		}
	}
	if g := large.Ops["GET"]; g.LastByte.P50 <= g.FirstByte.P50 {
		t.Errorf("large objects: GET's last byte p50 %.3f s is not after its first byte's %.3f s: not the whole object's",
			g.LastByte.P50, g.FirstByte.P50)
	}
	return by
}

// proxyCPU is the proxy servers' mean CPU (percent of one core, both
// proxies' added up) over the cell's run, 0 without telemetry.
func proxyCPU(c results.Cell) float64 {
	if c.Telemetry == nil {
		return 0
	}
	var cpu float64
	for _, s := range c.Telemetry.Services {
		if s.Service == "proxy-server" {
			cpu += s.CPU.Mean
		}
	}
	return cpu
}

// hasLine reports whether a line of out starts with prefix and contains
// want.
func hasLine(out, prefix, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) && strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// checkSegments wants every segment of the large objects' _segments
// containers to belong to a manifest still listed: the DELETEs removed
// their segments with the manifest.
func checkSegments(t *testing.T) {
	t.Helper()
	sw := newLabSwift(t)
	var segs, manifests int
	for _, c := range sw.names(t, "") {
		base, ok := strings.CutSuffix(c, "_segments")
		if !ok || !strings.HasPrefix(c, "pol_large") {
			continue
		}
		have := map[string]bool{}
		for _, o := range sw.names(t, "/"+base) {
			have[o] = true
		}
		manifests += len(have)
		for _, s := range sw.names(t, "/"+c) {
			segs++
			obj, _, _ := strings.Cut(s, "/")
			if !have[obj] {
				t.Errorf("segment %s/%s is left of a large object %s/%s that is gone", c, s, base, obj)
			}
		}
	}
	if segs == 0 || manifests == 0 {
		t.Errorf("no large object (%d manifests, %d segments) after the sweep: the prefilled ones should be there", manifests, segs)
	}
	t.Logf("large objects after the sweep: %d manifests, %d segments, none orphaned", manifests, segs)
}

// checkCorruptCounted changes one byte of every replicated object's .data
// files on stor1 and stor2 (policy 0's objects/ directories) and reads the
// GET workload's objects with benchbed load --verify: corrupt errors.
func checkCorruptCounted(t *testing.T, lab *Env, dir string) {
	t.Helper()
	const corrupt = `n=0; for f in $(find /srv/node/*/objects -name '*.data'); do printf X | dd of="$f" bs=1 seek=4096 conv=notrunc status=none; n=$((n+1)); done; echo "$n"`
	for _, h := range []string{"stor1", "stor2"} {
		out, err := lab.SSH(t, h, corrupt)
		if err != nil || strings.TrimSpace(out) == "0" {
			t.Fatalf("%s: corrupting the replicated objects: %v\n%s", h, err, out)
		}
		t.Logf("%s: %s .data files changed", h, strings.TrimSpace(out))
	}
	sc := filepath.Join(dir, "corrupt.scenario")
	must(t, os.WriteFile(sc, []byte(`{"name": "corrupt", "sizes": [{"name": "64KiB", "size_min": 65536, "size_max": 65536}],
	  "initial_files": {"64KiB": 50}, "container_base": "pol_get", "container_count": 10, "policy": "rep2",
	  "crud_profile": [0, 1, 0, 0], "operation_count": 50, "user_count": 2}`), 0o644))
	out, errOut, _ := lab.Benchbed(t, "load", "--scenario", sc, "--auth-url", labAuthURL, "--user", labUser, "--key", labKey,
		"--initial", "skip", "--verify", "--json")
	var c results.Cell
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("benchbed load --json: %v\n%s\n%s", err, out, errOut)
	}
	if c.Total.ErrorsBy["corrupt"] == 0 {
		t.Fatalf("verified GETs of corrupted objects: %d ok, errors %v; want corrupt ones", c.Total.Count, c.Total.ErrorsBy)
	}
	t.Logf("verified GETs of corrupted objects: %d ok, errors %v, status %s", c.Total.Count, c.Total.ErrorsBy, c.Status)
}

// checkProxyCPUReported wants the report's telemetry to give the proxy's
// CPU in every cell (where EC's encoding and decoding cost shows), logs
// those lines and returns the report.
func checkProxyCPUReported(t *testing.T, lab *Env, run string) string {
	t.Helper()
	out, errOut, err := lab.Benchbed(t, "report", run)
	if err != nil {
		t.Fatalf("benchbed report: %v\n%s", err, errOut)
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Telemetry of ") || strings.Contains(l, "proxy-server CPU") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if n := strings.Count(out, "proxy1 proxy-server CPU"); n < len(policyCells) {
		t.Errorf("the report gives the proxy's CPU in %d cells, want %d:\n%s", n, len(policyCells), out)
	}
	t.Logf("the report's proxy CPU per cell:\n%s", strings.Join(lines, "\n"))
	return out
}
