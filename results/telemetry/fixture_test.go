package telemetry

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// snap returns the FS of fixture snapshot n (1 or 2, taken a second apart
// on a real machine by testdata/capture.sh) and its time.
func snap(t *testing.T, n int) (FS, time.Time) {
	t.Helper()
	dir := filepath.Join("testdata", "snap"+strconv.Itoa(n))
	b, err := os.ReadFile(filepath.Join(dir, "time"))
	if err != nil {
		t.Fatal(err)
	}
	sec, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		t.Fatal(err)
	}
	return FS{Proc: filepath.Join(dir, "proc"), Sys: fixtureSys(t)}, time.Unix(0, int64(sec*1e9))
}

// fixtureSys builds a /sys with the fixture machine's /sys/dev/block links.
func fixtureSys(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sys-dev-block.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sys := t.TempDir()
	if err := os.MkdirAll(filepath.Join(sys, "dev", "block"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		dev, target, _ := strings.Cut(line, " ")
		if err := os.Symlink(target, filepath.Join(sys, "dev", "block", dev)); err != nil {
			t.Fatal(err)
		}
	}
	return sys
}

// readFixture returns the fixture file of snapshot n.
func readFixture(t *testing.T, n int, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "snap"+strconv.Itoa(n), "proc", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// near says whether a and b differ by at most tol.
func near(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }
