package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"benchbed/e2e/labkit"
)

// Env is the local lab as tests see it.
type Env struct {
	Root      string // the repository's root
	Dir       string // the lab's state directory (/var/lib/benchbed-lab)
	Testbed   string // testbeds/lab/lab.hcl
	SSHConfig string // ssh_config naming every lab host
}

// Hosts are the lab's hosts, as named in lab.hcl.
var Hosts = []string{"proxy1", "stor1", "stor2", "client1"}

// LabDir is where testbeds/lab/up keeps the lab's state.
const LabDir = "/var/lib/benchbed-lab"

var (
	once   sync.Once
	env    *Env
	skip   string // why the lab cannot run here
	upErr  error
	lockFD = -1
	upMu   sync.Mutex
	// broughtUp: this binary brought the lab up and has not taken it down.
	broughtUp bool
	// spoiled: a test left the lab as lab.hcl's setup would refuse it
	// (spoilLab); the next Lab takes it down and brings it up again.
	spoiled bool
	// ups counts the bring-ups of this binary (one, unless TestLab did not
	// come first); uses counts the tests that asked for the lab since it was
	// last brought up (bareLab wants to be the first).
	ups, uses int
	// times are the binary's tests' times, written when it ends.
	times     labkit.Times
	binaryBeg = time.Now()
)

// Lab returns the local lab, bringing it up on the binary's first use
// (after taking down whatever lab was there): once per binary, the tests
// share it, each setting up its own testbed over what the one before left.
// It is brought up again only if it is gone (a test took it down) or a
// test left it spoiled (spoilLab): then it is taken down first. It
// skips t (naming what is missing) where the lab cannot run: not Linux,
// not root, or without the commands and Debian packages it needs. Each
// test's time, from its first call, is logged at its end and summed up by
// Main.
func Lab(t testing.TB) *Env {
	t.Helper()
	times.Track(t)
	once.Do(start)
	if skip != "" {
		t.Skip("SKIP: " + skip)
	}
	if upErr != nil {
		t.Fatalf("lab up: %v", upErr)
	}
	upMu.Lock()
	defer upMu.Unlock()
	if _, err := os.Stat("/run/netns/proxy1"); err != nil || !broughtUp || spoiled {
		begin := time.Now()
		steps := []string{"up"}
		if spoiled {
			steps = []string{"down", "up"}
		}
		for _, s := range steps {
			if out, err := script(s); err != nil {
				t.Fatalf("lab %s: %v\n%s", s, err, out)
			}
		}
		broughtUp, spoiled, uses, ups = true, false, 0, ups+1
		times.Note("lab %s (%d): %.1f s, in %s", strings.Join(steps, " and "), ups, time.Since(begin).Seconds(), t.Name())
	}
	uses++
	return env
}

// spoilLab says that t leaves the lab as no later test's setup may take
// it (TestPolicies: swift.conf keeps erasure-coded policies that lab.hcl
// drops, and setup refuses to drop a policy): a later test's Lab takes it
// down and up again first. Last in the binary, it costs nothing: Main's
// down at the end (checked to leave nothing) is the only one.
func spoilLab() {
	upMu.Lock()
	defer upMu.Unlock()
	spoiled = true
}

// bareLab returns the lab as testbeds/lab/up leaves it, bare hosts that no
// test has set up. TestLab's file sorts first, so in a whole run it is the
// lab's first user; when another test used the lab before (a file sorting
// before it, or -run), the lab is taken down and brought up again, and the
// binary's summary says so.
func bareLab(t testing.TB) *Env {
	t.Helper()
	lab := Lab(t)
	upMu.Lock()
	defer upMu.Unlock()
	if uses > 1 {
		t.Logf("the lab was used before %s: taking it down and up again for bare hosts", t.Name())
		begin := time.Now()
		for _, s := range []string{"down", "up"} {
			if out, err := script(s); err != nil {
				t.Fatalf("lab %s: %v\n%s", s, err, out)
			}
		}
		broughtUp, uses, ups = true, 1, ups+1
		times.Note("lab down and up (%d) for the bare hosts of %s: %.1f s", ups, t.Name(), time.Since(begin).Seconds())
	}
	return lab
}

// Main runs the tests of m, then takes the lab down if one of them brought
// it up and checks that down leaves nothing (once per binary, whichever
// tests ran: a leftover fails the binary), and writes every test's time.
// Use it from TestMain.
func Main(m *testing.M) int {
	code := m.Run()
	if broughtUp {
		begin := time.Now()
		if problems := downLeavesNothing(); len(problems) > 0 {
			fmt.Fprintf(os.Stderr, "--- FAIL: the lab's down leaves nothing (checked at the binary's end):\n\t%s\n",
				strings.Join(problems, "\n\t"))
			times.Note("lab down: FAIL (%d problems), %.1f s", len(problems), time.Since(begin).Seconds())
			if code == 0 {
				code = 1
			}
		} else {
			times.Note("lab down leaves nothing (namespaces, links, bridge, mounts, processes, state): ok, %.1f s",
				time.Since(begin).Seconds())
		}
	}
	if lockFD >= 0 {
		syscall.Close(lockFD)
	}
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	removeFixtures()
	if env != nil && skip == "" {
		times.Write(os.Stderr, "e2e (testbeds/lab) times", time.Since(binaryBeg))
	}
	return code
}

// start checks the machine, takes the lock and takes down any earlier lab.
func start() {
	root, err := labkit.RepoRoot()
	if err != nil {
		upErr = err
		return
	}
	env = &Env{Root: root, Dir: LabDir, Testbed: filepath.Join(root, "testbeds", "lab", "lab.hcl"),
		SSHConfig: filepath.Join(LabDir, "client", "ssh_config")}
	if skip = missing(); skip != "" {
		return
	}
	if upErr = lock(); upErr != nil {
		return
	}
	cleanLeftovers(os.Stderr)
	if out, err := script("down"); err != nil {
		upErr = fmt.Errorf("taking down an earlier lab: %v\n%s", err, out)
	}
}

// missing says why the lab cannot run on this machine, or "".
func missing() string {
	if runtime.GOOS != "linux" {
		return "the local lab needs Linux (network namespaces)"
	}
	if os.Geteuid() != 0 {
		return "the local lab needs root (network namespaces, mounts, sshd); CI runs it as root"
	}
	var miss []string
	for _, c := range []string{"ip", "unshare", "flock", "ssh", "ssh-keygen", "/usr/sbin/sshd", "swift-ring-builder",
		"swift-proxy-server", "swift-object-server", "swift-container-server", "swift-account-server",
		"memcached", "swift", "ss", "setsid"} {
		if _, err := exec.LookPath(c); err != nil {
			miss = append(miss, c)
		}
	}
	if len(miss) > 0 {
		return fmt.Sprintf("the local lab needs %v (Debian: scripts/deps.sh installs them as root)", miss)
	}
	return ""
}

// lock takes the machine-wide e2e lock, held until the binary ends, unless
// whoever started the tests holds it for them already (scripts/e2e.sh takes
// it before go test starts, so that waiting for another user of the lab does
// not count against the tests' timeout).
func lock() error {
	if os.Getenv("BENCHBED_E2E_LOCK_HELD") == "1" {
		return nil
	}
	fd, err := labkit.Lock("benchbed-e2e")
	if err != nil {
		return err
	}
	lockFD = fd
	return nil
}

// script runs testbeds/lab/<name> with args.
func script(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(env.Root, "testbeds", "lab", name), args...)
	cmd.Env = append(os.Environ(), "BENCHBED_E2E_LOCK_HELD=1")
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.Bytes(), err
}
