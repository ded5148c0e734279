package compare

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchbed/internal/golden"
	"benchbed/results/rundir"
)

const fixTestbed = "testbed \"lab\" {}\nvariable \"auth_key\" {\n  default   = \"lab-bench-key\"\n  sensitive = true\n}\nworkload \"64K_get\" {\n  duration = \"10s\"\n  key      = var.auth_key\n}\n"

func mustSide(t *testing.T, ref string) *Side {
	t.Helper()
	s, err := OpenSide("", ref)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustCompare(t *testing.T, a, b string) (*Comparison, string) {
	t.Helper()
	c, err := Compare(mustSide(t, a), mustSide(t, b), CompareOptions{LastByte: true})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, c, "text"); err != nil {
		t.Fatal(err)
	}
	return c, out.String()
}

func metric(t *testing.T, p Pair, op, name string) Metric {
	t.Helper()
	for _, oc := range p.Ops {
		for _, m := range oc.Metrics {
			if oc.Op == op && m.Name == name {
				return m
			}
		}
	}
	t.Fatalf("no %s %s in %+v", op, name, p.Ops)
	return Metric{}
}

// tableRow returns the cells of the text table's row of op and metric.
func tableRow(out, op, name string) []string {
	for _, l := range strings.Split(out, "\n") {
		f := strings.Split(strings.Trim(l, "│ "), "│")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if len(f) > 2 && f[0] == op && f[1] == name {
			return f
		}
	}
	return nil
}

func TestRepeatsNeededIsBenchmathsMinimum(t *testing.T) {
	// At alpha 0.05 the U test's smallest p with n=3 per side is 0.1, with 4 it is 0.029.
	if n := RepeatsNeeded(0.05); n != 4 {
		t.Fatalf("RepeatsNeeded(0.05) = %d, want 4", n)
	}
	if n := RepeatsNeeded(0.2); n != 3 {
		t.Fatalf("RepeatsNeeded(0.2) = %d, want 3", n)
	}
}

func TestCompareTwoRunsPoolsRepeats(t *testing.T) {
	tbB := strings.Replace(strings.Replace(fixTestbed, `"10s"`, `"20s"`, 1), "lab-bench-key", "other-secret-key", 1)
	var a, b []fixCell
	for r := 1; r <= 4; r++ {
		a = append(a, fixNormal(r, 100+float64(r)))
		b = append(b, fixNormal(r, 150+float64(r)))
	}
	a = append(a, fixCell{variant: "threads_per_disk=1", repeat: 1, reqPerS: 50, workers: "1", spp: "0", ports: 6200})
	b = append(b, fixSPP1(1, 90))
	runB := fixRun(t, "runB", tbB, false, b...)
	cmpFile(t, filepath.Join(runB, rundir.EnvDir, "stor1.txt"), "\n## kernel\nLinux 6.1\n\n## swift\nswift 2.31.0\n")
	c, out := mustCompare(t, fixRun(t, "runA", fixTestbed, false, a...), runB)
	if !slices.Equal(c.Environment, []string{"stor1: -swift 2.30.1", "stor1: +swift 2.31.0"}) {
		t.Errorf("environment diff %q", c.Environment)
	}
	if c.Mode != "runs" || len(c.Pairs) != 1 {
		t.Fatalf("mode %s, %d pairs, want runs and 1:\n%s", c.Mode, len(c.Pairs), out)
	}
	p := c.Pairs[0]
	if p.Samples != SamplesRepeats || len(p.CellsA) != 4 || len(p.CellsB) != 4 {
		t.Fatalf("samples %s, cells %v / %v", p.Samples, p.CellsA, p.CellsB)
	}
	req := metric(t, p, "GET", MetricReqPerS)
	if req.Test == nil || !req.Test.Significant || req.Test.N1 != 4 || req.Test.N2 != 4 || req.A != 102.5 || req.B != 152.5 {
		t.Fatalf("req/s %+v test %+v", req, req.Test)
	}
	if lat := metric(t, p, "GET", "first-byte p50 (s)"); lat.Test == nil || lat.Test.Significant {
		t.Fatalf("equal per-repeat latencies: %+v", lat.Test)
	}
	if row := tableRow(out, "GET", "first-byte p50 (s)"); !slices.Equal(row, []string{"GET", "first-byte p50 (s)", "0.0300", "0.0300", "~", "p=1.000 n=4"}) {
		t.Errorf("latency row %q", row)
	}
	for _, want := range []string{"+48.8%", "p=0.029 n=4", "only in A: threads_per_disk=1 / 64K_get (1 cell)",
		"only in B: servers_per_port=1 / 64K_get (1 cell)", `-  duration = "10s"`, `+  duration = "20s"`, "configuration: same",
		"latency of pooled repeats: median of the repeats' percentiles"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "lab-bench-key") || strings.Contains(out, "other-secret-key") {
		t.Errorf("a sensitive default reached the output:\n%s", out)
	}
}

func TestCompareTwoCellsOfOneRun(t *testing.T) {
	run := fixRun(t, "run", fixTestbed, false, fixNormal(1, 500), fixSPP1(1, 400))
	c, out := mustCompare(t, run+":1", run+":servers_per_port=1")
	p := c.Pairs[0]
	if c.Mode != "cells" || p.Samples != SamplesPerSecond || len(c.Testbed) != 0 {
		t.Fatalf("mode %s samples %s testbed %v", c.Mode, p.Samples, c.Testbed)
	}
	req := metric(t, p, "GET", MetricReqPerS)
	if req.Test == nil || !req.Test.Significant || req.Test.N1 != 10 || math.Abs(*req.DeltaPct+20) > 1e-9 {
		t.Fatalf("req/s %+v test %+v", req, req.Test)
	}
	if lat := metric(t, p, "GET", "first-byte p99 (s)"); lat.Test != nil || lat.DeltaPct == nil {
		t.Fatalf("latency from one histogram per side claims a test: %+v", lat)
	}
	for _, want := range []string{"normal / 64K_get  vs  servers_per_port=1 / 64K_get", "autocorrelated", "-20.0%", "p=0.000 n=10"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCompareIdenticalSamplesAreNotSignificant(t *testing.T) {
	var a, b []fixCell
	for r := 1; r <= 5; r++ {
		a, b = append(a, fixNormal(r, 300)), append(b, fixNormal(r, 300))
	}
	for _, tc := range []struct{ a, b string }{
		{fixRun(t, "a", fixTestbed, false, a...), fixRun(t, "b", fixTestbed, false, b...)},
		{fixRun(t, "c", fixTestbed, false, a[0]) + ":1", fixRun(t, "d", fixTestbed, false, b[0]) + ":1"},
	} {
		c, out := mustCompare(t, tc.a, tc.b)
		req := metric(t, c.Pairs[0], "GET", MetricReqPerS)
		if row := tableRow(out, "GET", MetricReqPerS); req.Test == nil || req.Test.Significant || len(row) < 5 || row[4] != "~" {
			t.Errorf("identical samples (%s): %+v\n%s", c.Pairs[0].Samples, req.Test, out)
		}
	}
}

func TestCompareConfsOneKeyAndRingPorts(t *testing.T) {
	a, b := fixNormal(1, 100), fixNormal(1, 100)
	b.spp, b.ports, b.perDisk = "1", 6210, true
	run := fixRun(t, "run", fixTestbed, false, a, b)
	c, out := mustCompare(t, run+":001", run+":002")
	d := c.Pairs[0].Conf
	if len(d.Files) != 1 || len(d.Files[0].Changes) != 1 || !slices.Equal(d.Files[0].Hosts, []string{"stor1", "stor2"}) {
		t.Fatalf("conf diff %+v", d)
	}
	ch := d.Files[0].Changes[0]
	if ch.Section != "DEFAULT" || ch.Key != "servers_per_port" || *ch.Old != "0" || *ch.New != "1" {
		t.Fatalf("change %+v", ch)
	}
	want := "configuration (A -> B):\n" +
		"  stor1, stor2: /etc/swift/object-server.conf\n" +
		"    [DEFAULT]\n" +
		"      servers_per_port: 0 -> 1\n" +
		"  ring object: one port per host (6200) -> one port per disk from 6210\n" +
		"  ring object ports: stor1: d0..d3 6200 -> 6210..6213\n"
	if !strings.HasSuffix(out, want) {
		t.Fatalf("output does not end with\n%s\ngot:\n%s", want, out)
	}
}

func TestCompareKilledRunAndMissingCell(t *testing.T) {
	killed := fixRun(t, "killed", fixTestbed, true, fixNormal(1, 100), fixSPP1(1, 120))
	// The killed run's third cell never finished: no cell.json.
	if err := os.MkdirAll(filepath.Join(killed, rundir.CellsDir, "003-servers_per_port_2-64K_get-r1", rundir.AgentsDir), 0o750); err != nil {
		t.Fatal(err)
	}
	whole := fixRun(t, "whole", fixTestbed, false, fixNormal(1, 100), fixCell{variant: "servers_per_port=2", repeat: 1, reqPerS: 130,
		workers: "1", spp: "2", ports: 6210, perDisk: true})
	s := mustSide(t, killed)
	if !s.Run.Partial || len(s.Run.Summary.Cells) != 2 {
		t.Fatalf("killed run: partial %v, %d cells", s.Run.Partial, len(s.Run.Summary.Cells))
	}
	c, out := mustCompare(t, killed, whole)
	if len(c.Pairs) != 1 || c.Pairs[0].A != "normal / 64K_get" {
		t.Fatalf("pairs %+v", c.Pairs)
	}
	if !slices.Equal(c.OnlyA, []string{"servers_per_port=1 / 64K_get (1 cell)"}) ||
		!slices.Equal(c.OnlyB, []string{"servers_per_port=2 / 64K_get (1 cell)"}) {
		t.Fatalf("only A %v, only B %v\n%s", c.OnlyA, c.OnlyB, out)
	}
}

func TestCompareErrorsNameThePath(t *testing.T) {
	run := fixRun(t, "run", fixTestbed, false, fixNormal(1, 100), fixSPP1(1, 120))
	other := fixRun(t, "other", fixTestbed, false, fixCell{variant: "x", repeat: 1, reqPerS: 1, workers: "1", spp: "0", ports: 6200})
	broken := fixRun(t, "broken", fixTestbed, false, fixNormal(1, 100))
	cmpFile(t, filepath.Join(broken, rundir.SummaryFile), `{"cells": [`)
	brokenCell := fixRun(t, "brokencell", fixTestbed, true, fixNormal(1, 100))
	cmpFile(t, filepath.Join(brokenCell, rundir.CellsDir, "001-normal-64K_get-r1", rundir.CellFile), "{")
	missing := filepath.Join(t.TempDir(), "nope")
	for _, tc := range []struct{ ref, want string }{
		{missing, missing},
		{missing + ":1", missing},
		{run + ":7", "has no cell \"7\" (cells: 001-normal-64K_get-r1, 002-servers_per_port=1-64K_get-r1)"},
		{run + ":", "no cell after ':'"},
		{broken, filepath.Join(broken, rundir.SummaryFile)},
		{brokenCell, filepath.Join(brokenCell, rundir.CellsDir, "001-normal-64K_get-r1", rundir.CellFile)},
	} {
		if _, err := OpenSide("", tc.ref); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OpenSide(%q) = %v, want an error with %q", tc.ref, err, tc.want)
		}
	}
	if _, err := Compare(mustSide(t, run), mustSide(t, run+":1"), CompareOptions{}); err == nil || !strings.Contains(err.Error(), "not a run") {
		t.Errorf("run against cell: %v", err)
	}
	if _, err := Compare(mustSide(t, run), mustSide(t, other), CompareOptions{}); err == nil || !strings.Contains(err.Error(), "no (variant, workload) in common") {
		t.Errorf("no matched cell: %v", err)
	}
}

func TestOpenSideColonInPath(t *testing.T) {
	base := t.TempDir()
	src := fixRun(t, "run", fixTestbed, false, fixNormal(1, 100), fixSPP1(1, 120))
	dir := filepath.Join(base, "lab:2026")
	if err := os.Rename(src, dir); err != nil {
		t.Fatal(err)
	}
	if s := mustSide(t, dir); s.Cells != nil {
		t.Fatalf("%s is a run, got cells %v", dir, s.Cells)
	}
	if s := mustSide(t, dir+":2"); len(s.Cells) != 1 || s.Cells[0].Variant != "servers_per_port=1" || s.Run.Dir != dir {
		t.Fatalf("%s:2 = %+v", dir, s)
	}
}

func TestCompareSeveralOpsPerSecondTestsTheTotal(t *testing.T) {
	run := fixRun(t, "run", fixTestbed, false, fixNormal(1, 500), fixSPP1(1, 400))
	r, err := rundir.ReadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Summary.Cells {
		c := &r.Summary.Cells[i]
		put := c.Ops["GET"]
		put.ReqPerS /= 10
		put.Errors = int64(i) * 3
		c.Ops["PUT"] = put
	}
	cmpJSON(t, filepath.Join(run, rundir.SummaryFile), r.Summary)
	c, out := mustCompare(t, run+":1", run+":2")
	p := c.Pairs[0]
	if got := []string{p.Ops[0].Op, p.Ops[1].Op, p.Ops[2].Op}; len(p.Ops) != 3 || !slices.Equal(got, []string{"GET", "PUT", "total"}) {
		t.Fatalf("ops %v", p.Ops)
	}
	if metric(t, p, "GET", MetricReqPerS).Test != nil || metric(t, p, "total", MetricReqPerS).Test == nil {
		t.Fatalf("per-second samples are the total's: GET %+v, total %+v", metric(t, p, "GET", MetricReqPerS), metric(t, p, "total", MetricReqPerS))
	}
	if row := tableRow(out, "PUT", MetricErrors); !slices.Equal(row, []string{"PUT", "errors", "0", "3", "+3"}) {
		t.Errorf("PUT errors row %q", row)
	}
	if !strings.Contains(out, "only the total's req/s is tested") {
		t.Errorf("no note on the ops' samples:\n%s", out)
	}
}

func TestCompareVariantsRepeatsInOneRun(t *testing.T) {
	var cells []fixCell
	for r := 1; r <= 4; r++ {
		cells = append(cells, fixNormal(r, 300+float64(r)))
	}
	for r := 1; r <= 4; r++ {
		cells = append(cells, fixSPP1(r, 200+float64(r)))
	}
	run := fixRun(t, "run", fixTestbed, false, cells...)
	c, out := mustCompare(t, run+":normal", run+":servers_per_port=1")
	p := c.Pairs[0]
	if c.Mode != "cells" || p.Samples != SamplesRepeats || len(p.CellsA) != 4 || len(p.CellsB) != 4 {
		t.Fatalf("mode %s samples %s cells %v %v", c.Mode, p.Samples, p.CellsA, p.CellsB)
	}
	if req := metric(t, p, "GET", MetricReqPerS); req.Test == nil || !req.Test.Significant {
		t.Fatalf("req/s %+v", req)
	}
	if !strings.Contains(out, "A: "+run+":normal (4 repeats)") || !strings.Contains(out, "servers_per_port: 0 -> 1") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestCompareGoldenText(t *testing.T) {
	run := fixRun(t, "run", fixTestbed, false, fixNormal(1, 500), fixSPP1(1, 400))
	for _, format := range []string{"text", "markdown"} {
		c, err := Compare(mustSide(t, run+":1"), mustSide(t, run+":2"), CompareOptions{LastByte: true})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := WriteComparison(&out, c, format); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "compare_cells."+format, []byte(strings.ReplaceAll(out.String(), run, "RUN")))
	}
}
