package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/e2e/labkit"
	"benchbed/load"
	"benchbed/results"
)

// TestS3Sweep: setup of testbeds/lab/s3-lab.hcl over the lab (setUp: its
// proxy pipeline gets s3api, which prefill, run before the cells, needs;
// a later test's setUp of lab.hcl sees the change and sets it up again),
// then one sweep of its normal variant (4 s runs, 200 initial
// files, one repeat) gives the 64 KiB GET cells through Swift's API and through S3 side by
// side on the same policy, and the mixed S3 cell with multipart uploads,
// every one ok with 0 errors and its reads verified; compare of the two
// GET cells shows S3's cost over the Swift API, and the report the proxy's
// CPU in each cell; and Debian's s3cmd, when
// installed, lists a bucket the S3 workloads filled through the lab's
// proxy and reads its objects back byte for byte.
func TestS3Sweep(t *testing.T) {
	lab := Lab(t)
	tb := s3LabTestbed(t, lab)
	setUp(t, lab, tb)
	runs := t.TempDir()
	out, errOut, err := lab.Benchbed(t, "sweep", "--runs-dir", runs, "--only", "normal", tb)
	if err != nil {
		t.Fatalf("sweep: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("sweep:\n%s", out)
	dirs, _ := filepath.Glob(filepath.Join(runs, "*", "*"))
	if len(dirs) != 1 {
		t.Fatalf("run directories %v", dirs)
	}
	by := map[string]results.Cell{}
	for _, c := range readSummary(t, dirs[0]).Cells {
		by[c.Workload] = c
		if c.Status != results.StatusOK || c.Total.Errors != 0 || c.Total.Count == 0 {
			t.Errorf("cell %s: status %s, %d ok, %d errors %v", c.ID, c.Status, c.Total.Count, c.Total.Errors, c.Total.ErrorsBy)
		}
	}
	for _, w := range []string{"64K_get", "64K_get_s3", "mixed_s3"} {
		if _, ok := by[w]; !ok {
			t.Fatalf("no cell of workload %s: %v", w, by)
		}
	}
	out, errOut, err = lab.Benchbed(t, "compare", dirs[0]+":"+by["64K_get"].ID, dirs[0]+":"+by["64K_get_s3"].ID)
	if err != nil {
		t.Fatalf("compare of the Swift and S3 GET cells: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("benchbed compare 64K_get (Swift API) 64K_get_s3 (S3):\n%s", out)
	out, errOut, err = lab.Benchbed(t, "report", dirs[0])
	if err != nil {
		t.Fatalf("benchbed report: %v\n%s", err, errOut)
	}
	var cpu []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Telemetry of ") || strings.Contains(l, "proxy-server CPU") {
			cpu = append(cpu, strings.TrimSpace(l))
		}
	}
	if n := strings.Count(out, "proxy1 proxy-server CPU"); n < 3 {
		t.Errorf("the report gives the proxy's CPU in %d cells, want 3:\n%s", n, out)
	}
	t.Logf("the report's proxy CPU per cell:\n%s", strings.Join(cpu, "\n"))
	t.Run("s3cmd", func(t *testing.T) { s3cmdReadsBack(t, "lab-s3mix-000001-default-policy") })
}

// s3LabTestbed is s3-lab.hcl with 4 s runs, no warm-up, one repeat and
// 200 initial files, beside a copy of its scenario file.
func s3LabTestbed(t *testing.T, lab *Env) string {
	t.Helper()
	dir := filepath.Dir(lab.Testbed)
	s, err := labkit.Inlined(filepath.Join(dir, "s3-lab.hcl")) // its parts inlined: it is written elsewhere
	must(t, err)
	sc, err := os.ReadFile(filepath.Join(dir, "64K_get_lab.scenario"))
	must(t, err)
	for _, e := range [][2]string{{`duration          = "8s"`, `duration          = "4s"`}, {`duration = "8s"`, `duration = "4s"`},
		{`repeat     = 2`, `repeat     = 1`}, {`warmup     = "2s"`, `warmup     = "0s"`}, {`users             = 64`, `users             = 16`}} {
		if !strings.Contains(s, e[0]) {
			t.Fatalf("s3-lab.hcl has no %q: the test's edit needs updating", e[0])
		}
		s = strings.ReplaceAll(s, e[0], e[1])
	}
	out := t.TempDir()
	must(t, os.WriteFile(filepath.Join(out, "64K_get_lab.scenario"), bytes.Replace(sc, []byte(`"64KiB": 2000`), []byte(`"64KiB": 200`), 1), 0o644))
	p := filepath.Join(out, "s3-lab.hcl")
	must(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

// s3cmdReadsBack lists bucket on the lab's proxy with s3cmd and reads
// every object back, comparing it with the content benchbed writes.
func s3cmdReadsBack(t *testing.T, bucket string) {
	if _, err := exec.LookPath("s3cmd"); err != nil {
		t.Skip("SKIP: s3cmd is missing: install Debian's s3cmd (scripts/deps.sh)")
	}
	cfg := filepath.Join(t.TempDir(), "s3cfg")
	must(t, os.WriteFile(cfg, []byte("[default]\naccess_key = bench:bench\nsecret_key = lab-bench-key\nhost_base = 198.18.0.11:8080\n"+
		"host_bucket = 198.18.0.11:8080\nuse_https = False\nsignature_v2 = False\nbucket_location = us-east-1\n"), 0o600))
	ls, err := exec.Command("s3cmd", "-c", cfg, "ls", "s3://"+bucket).CombinedOutput()
	if err != nil {
		t.Fatalf("s3cmd ls: %v\n%s", err, ls)
	}
	n, large := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(ls)), "\n") {
		var day, tm, key string
		var size int64
		if _, err := fmt.Sscan(line, &day, &tm, &size, &key); err != nil {
			t.Fatalf("s3cmd ls line %q: %v", line, err)
		}
		got, err := exec.Command("s3cmd", "-c", cfg, "--no-progress", "get", key, "-").Output()
		if err != nil {
			t.Fatalf("s3cmd get %s: %v", key, err)
		}
		want, _ := io.ReadAll(load.Content(0, size))
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: s3cmd read %d bytes that differ from the %d benchbed wrote", key, len(got), size)
		}
		n++
		if size > load.S3MinPart {
			large++
		}
	}
	if n == 0 || large == 0 {
		t.Fatalf("s3cmd listed %d objects, %d multipart:\n%s", n, large, ls)
	}
	t.Logf("s3cmd read back %d objects of %s (%d multipart uploads), byte for byte", n, bucket, large)
}
