package distro

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"benchbed/e2e/labkit"
)

// Env is the distro lab as the test sees it.
type Env struct {
	Root      string // the repository's root
	Testbed   string // testbeds/distro/distro.hcl
	SSHConfig string // ssh_config naming every host
	bin       string // the benchbed binary built for this test binary
}

// Dir is where testbeds/distro/up keeps the lab's per-host state.
const Dir = "/var/lib/benchbed-distro"

var (
	env       *Env
	skip      string // why the lab cannot run here
	startErr  error
	lockFD    = -1
	broughtUp bool
	buildDir  string
	// times are the tests' times, written when the binary ends.
	times     labkit.Times
	binaryBeg = time.Now()
)

// Lab returns the distro lab's environment, or skips t naming what this
// machine lacks. t's time, from this call, is logged at its end and in the
// binary's summary.
func Lab(t *testing.T) *Env {
	t.Helper()
	times.Track(t)
	if skip != "" {
		t.Skip("SKIP: " + skip)
	}
	if startErr != nil {
		t.Fatalf("distro lab: %v", startErr)
	}
	return env
}

// Main checks the machine, takes the lock and builds benchbed, runs the
// tests of m, takes the lab down if a test brought it up and writes the
// tests' times.
func Main(m *testing.M) int {
	start()
	code := m.Run()
	if broughtUp {
		if out, err := Script("down"); err != nil {
			fmt.Fprintf(os.Stderr, "distro: down: %v\n%s", err, out)
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
	if skip == "" {
		times.Write(os.Stderr, "e2e/distro (testbeds/distro) times", time.Since(binaryBeg))
	}
	return code
}

func start() {
	root, err := labkit.RepoRoot()
	if err != nil {
		startErr = err
		return
	}
	env = &Env{Root: root, Testbed: filepath.Join(root, "testbeds", "distro", "distro.hcl"),
		SSHConfig: filepath.Join(Dir, "client", "ssh_config")}
	if skip = missing(); skip != "" {
		return
	}
	if lockFD, startErr = labkit.Lock("benchbed-distro"); startErr != nil {
		return
	}
	buildDir, env.bin, startErr = labkit.Build(root, "benchbed-distro-")
}

// missing says why the distro lab cannot run on this machine, or "".
func missing() string {
	if runtime.GOOS != "linux" {
		return "the distro lab needs Linux (systemd-nspawn, network namespaces, loop devices)"
	}
	if os.Geteuid() != 0 {
		return "the distro lab needs root (systemd-nspawn, network namespaces, loop devices); CI runs it as root"
	}
	var miss []string
	for _, c := range []string{"systemd-nspawn", "debootstrap", "losetup", "ip", "flock", "ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(c); err != nil {
			miss = append(miss, c)
		}
	}
	if len(miss) > 0 {
		return fmt.Sprintf("the distro lab needs %v (Debian: apt-get install systemd-container debootstrap; testbeds/distro/up installs the rest)", miss)
	}
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		return "the distro lab needs loop devices (/dev/loop-control)"
	}
	return ""
}

// Script runs testbeds/distro/<name> with args (the lock is this binary's).
func Script(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(env.Root, "testbeds", "distro", name), args...)
	cmd.Env = append(os.Environ(), "BENCHBED_DISTRO_LOCK_HELD=1")
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	if name == "up" {
		broughtUp = true
	}
	return b.Bytes(), err
}

// Benchbed runs the benchbed CLI with args from the repository's root.
func (e *Env) Benchbed(args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = e.Root
	var o, eb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &eb
	err = cmd.Run()
	return o.String(), eb.String(), err
}

// SSH runs cmd on host through the lab's ssh_config (OpenSSH's client,
// independent of benchbed's) and returns its combined output.
func (e *Env) SSH(host, cmd string) (string, error) {
	c := exec.Command("ssh", "-F", e.SSHConfig, "-o", "BatchMode=yes", host, cmd)
	out, err := c.CombinedOutput()
	return string(out), err
}
