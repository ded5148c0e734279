package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"

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
	// uses counts the tests that asked for the lab since it was last
	// brought up (bareLab wants to be the first).
	uses int
)

// Lab returns the local lab, bringing it up on first use in this test
// binary (after taking down whatever lab was there), and again after a test
// took it down. It skips t (naming what is missing) where the lab cannot
// run: not Linux, not root, or without the commands and Debian packages it
// needs.
func Lab(t testing.TB) *Env {
	t.Helper()
	once.Do(start)
	if skip != "" {
		t.Skip("SKIP: " + skip)
	}
	if upErr != nil {
		t.Fatalf("lab up: %v", upErr)
	}
	upMu.Lock()
	defer upMu.Unlock()
	if _, err := os.Stat("/run/netns/proxy1"); err != nil || !broughtUp {
		if out, err := script("up"); err != nil {
			t.Fatalf("lab up: %v\n%s", err, out)
		}
		broughtUp, uses = true, 0
	}
	uses++
	return env
}

// bareLab returns the lab as testbeds/lab/up leaves it, bare hosts that no
// test has set up: when an earlier test of this binary used it, the lab is
// taken down and brought up again (tests run in file order, and any file may
// come first).
func bareLab(t testing.TB) *Env {
	t.Helper()
	lab := Lab(t)
	upMu.Lock()
	defer upMu.Unlock()
	if uses > 1 {
		for _, s := range []string{"down", "up"} {
			if out, err := script(s); err != nil {
				t.Fatalf("lab %s: %v\n%s", s, err, out)
			}
		}
		broughtUp, uses = true, 1
	}
	return lab
}

// Main runs the tests of m and takes the lab down afterwards if one of them
// brought it up. Use it from TestMain.
func Main(m *testing.M) int {
	code := m.Run()
	if broughtUp {
		if out, err := script("down"); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: lab down: %v\n%s", err, out)
			if code == 0 {
				code = 1
			}
		}
	}
	if lockFD >= 0 {
		syscall.Close(lockFD)
	}
	if buildDir != "" {
		os.RemoveAll(buildDir)
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
