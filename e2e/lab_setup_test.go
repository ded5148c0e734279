package e2e

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// lastSetup is what this binary's last setup through setUp left: the
// bring-up of the lab it ran on, its testbed's checksum and the lab's
// state right after it (labState).
var lastSetup struct {
	mu    sync.Mutex
	up    int
	sum   [sha256.Size]byte
	state string
}

// setUp runs `benchbed setup -q tb`, unless the last setUp of this binary,
// on the same bring-up of the lab, was of a testbed that sets up the same
// cluster (setupKey: its first variant's rendered confs and ring layout,
// and its text without the blocks setup does not read) and the lab is
// still as that setup left it (labState: every conf, ring and builder of
// the Swift hosts and the ports their servers listen on): that setup would
// change nothing and find the same servers up, so it is skipped, saying
// so. Tests whose steps are setups (TestLab's) call benchbed setup
// themselves; a failed setup fails t.
func setUp(t *testing.T, lab *Env, tb string) {
	t.Helper()
	sum := setupKey(t, lab, tb)
	upMu.Lock()
	up := ups
	upMu.Unlock()
	lastSetup.mu.Lock()
	defer lastSetup.mu.Unlock()
	if lastSetup.up == up && lastSetup.sum == sum && lastSetup.state != "" && labState(t, lab) == lastSetup.state {
		t.Logf("setup of %s skipped: this binary's last one, of the same cluster, left the lab's confs, rings, builders and listening ports as they are", tb)
		return
	}
	lastSetup.state = ""
	if out, errOut, err := lab.Benchbed(t, "setup", "-q", tb); err != nil {
		t.Fatalf("benchbed setup: %v\n%s\n%s", err, out, errOut)
	}
	lastSetup.up, lastSetup.sum, lastSetup.state = up, sum, labState(t, lab)
}

// notSetUp are the testbed's top-level blocks that setup does not read
// (the lab's testbeds close every block at the start of a line).
var notSetUp = regexp.MustCompile(`(?ms)^(variant|workload|prefill|sweep|telemetry|testbed)\b[^\n{]*\{(\}\n|\n.*?^\}\n)`)

// setupKey is what decides what setup of tb does: its first variant's
// rendered files (every host's confs, the ring layout) and its text
// without the blocks setup does not read (hosts and their disks and
// packages, rings, services, policies, ssh, variables stay), comments
// included: a difference only costs a setup.
func setupKey(t *testing.T, lab *Env, tb string) [sha256.Size]byte {
	t.Helper()
	src, err := os.ReadFile(tb)
	must(t, err)
	out := t.TempDir()
	if o, errOut, err := lab.Benchbed(t, "render", tb, "--out", out); err != nil {
		t.Fatalf("benchbed render %s: %v\n%s\n%s", tb, err, o, errOut)
	}
	h := sha256.New()
	h.Write(notSetUp.ReplaceAll(src, nil))
	must(t, filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		fmt.Fprintf(h, "\n%s %d\n", strings.TrimPrefix(p, out), len(b))
		h.Write(b)
		return err
	}))
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// labState is what labFiles checksums on every Swift host (its confs,
// rings, builders and any file a sweep would leave beside them) and the TCP
// ports the host listens on.
func labState(t *testing.T, lab *Env) string {
	t.Helper()
	return onSwiftHosts(t, lab, "cd /etc/swift && sha256sum *.conf *.ring.gz $(ls *.builder 2>/dev/null); ls -A | grep benchbed; ss -Hltn | awk '{print $4}' | sort -u")
}

// onSwiftHosts runs script on proxy1, stor1 and stor2, one SSH session a
// host, the hosts at once, and returns their outputs under their names, in
// that order; a failure fails t.
func onSwiftHosts(t *testing.T, lab *Env, script string) string {
	t.Helper()
	hosts := []string{"proxy1", "stor1", "stor2"}
	outs, errs := make([]string, len(hosts)), make([]error, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = lab.SSH(t, h, script)
		}()
	}
	wg.Wait()
	var b strings.Builder
	for i, h := range hosts {
		if errs[i] != nil {
			t.Fatalf("%s: %v\n%s", h, errs[i], outs[i])
		}
		b.WriteString(h + ":\n" + outs[i])
	}
	return b.String()
}
