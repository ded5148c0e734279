package distro

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/e2e/labkit"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// units are the systemd units setup starts on each service host.
var units = map[string][]string{
	"proxy1": {"memcached", "swift-proxy"},
	"stor1":  {"swift-object", "swift-object-auditor", "swift-container", "swift-account"},
	"stor2":  {"swift-object", "swift-object-auditor", "swift-container", "swift-account"},
}

// TestDistro is the distro lab's whole story, in order: bare booted hosts
// without Swift; setup installs it, formats and mounts the loop disks and
// starts everything through systemd; setup again changes nothing; a package
// no repository has is named with its host and nothing changes; a sweep of
// normal and servers_per_port=2 gives a table without errors and leaves the
// confs and rings byte-identical and every unit active; fault cells of
// every kind but pause (faults_test.go); client1 as a Swift
// all in one under swift-init is set up and swept the same way; down leaves
// nothing.
func TestDistro(t *testing.T) {
	lab := Lab(t)
	dir := t.TempDir()
	tb := testbedCopy(t, lab, dir, "distro.hcl")
	// The sweep's cells short: its checks (a table row without errors,
	// the files and units as before) need a run, not a long one.
	editFile(t, tb, [][2]string{
		{`(?m)^(\s*duration\s*=\s*)"20s"`, `${1}"5s"`},
		{`(?m)^(\s*warmup\s*=\s*)"5s"`, `${1}"1s"`},
	})
	editFile(t, filepath.Join(dir, "64K_get_distro.scenario"), [][2]string{{`("64KiB":\s*)1000`, `${1}200`}})
	aio := testbedCopy(t, lab, dir, "aio-swift-init.hcl")
	steps := []struct {
		name string
		fn   func(*testing.T, *Env, string)
	}{
		{"BareHosts", testBareHosts},
		{"SetupInstallsFormatsStarts", testSetup},
		{"SetupAgainChangesNothing", testSetupAgain},
		{"MissingPackageIsNamed", testMissingPackage},
		{"SweepRestoresEverything", testSweep},
		{"FaultCells", testFaultCells},
		{"SwiftInitHost", func(t *testing.T, lab *Env, _ string) { testSwiftInit(t, lab, aio) }},
		{"DownLeavesNothing", testDown},
	}
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) { s.fn(t, lab, tb) }) {
			t.Fatalf("step %s failed; later steps depend on it", s.name)
		}
	}
}

// testbedCopy writes testbeds/distro/<name> and the scenarios into dir, with
// the sweep's runs there too, and returns the copy's path.
func testbedCopy(t *testing.T, lab *Env, dir, name string) string {
	t.Helper()
	src := filepath.Dir(lab.Testbed)
	text, err := labkit.Inlined(filepath.Join(src, name)) // the lab's parts in it
	if err != nil {
		t.Fatal(err)
	}
	scens, _ := filepath.Glob(filepath.Join(src, "*.scenario"))
	for _, sc := range scens {
		b, err := os.ReadFile(sc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(sc)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hcl := strings.Replace(text, "sweep {", "sweep {\n  runs_dir = \""+filepath.Join(dir, "runs")+"\"", 1)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// editFile applies edits (a regular expression and its replacement, each
// of which must match) to the file at path.
func editFile(t *testing.T, path string, edits [][2]string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := labkit.Edit(string(b), edits)
	if err != nil {
		t.Fatalf("%s: %v (the edit that shortens its runs)", path, err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func testBareHosts(t *testing.T, lab *Env, _ string) {
	if out, err := Script("down"); err != nil {
		t.Fatalf("down before up: %v\n%s", err, out)
	}
	if out, err := Script("up"); err != nil {
		t.Fatalf("up: %v\n%s", err, out)
	}
	for _, h := range []string{"proxy1", "stor1", "stor2", "client1"} {
		out, err := lab.SSH(h, "systemctl is-system-running; hostname; command -v swift-proxy-server swift-object-server || echo no-swift")
		if err != nil {
			t.Fatalf("%s: %v\n%s", h, err, out)
		}
		if want := "running\n" + h + "\nno-swift\n"; out != want {
			// A degraded boot: which units failed, and why, for the
			// next look (a flake seen once under load, unexplained).
			why, _ := lab.SSH(h, "systemctl --failed --no-legend --plain; for u in $(systemctl --failed --no-legend --plain | cut -d' ' -f1); do journalctl -b -u \"$u\" -n 15 --no-pager; done")
			t.Errorf("%s: got %q, want %q (booted, its own hostname, no Swift); failed units:\n%s", h, out, want, why)
		}
	}
}

func testSetup(t *testing.T, lab *Env, tb string) {
	out, errOut, err := lab.Benchbed("setup", "-q", tb)
	if err != nil {
		t.Fatalf("benchbed setup: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	for _, want := range []string{"setup: changes applied; the cluster is healthy",
		"installed swift-proxy memcached swift (apt)", "installed swift-object swift-container swift-account xfsprogs (apt)",
		"formatted /dev/vdb as xfs (label d0)", "mounted /dev/vdd (xfs) on /srv/node/m0", "added /srv/node/d1 to /etc/fstab",
		"started proxy-server (systemd)", "started object-server (systemd)", "started object-auditor (systemd)",
		"auth, PUT, GET, DELETE ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("setup's summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errOut, "distro-bench-key") {
		t.Errorf("setup printed the auth key")
	}
	for _, h := range []string{"stor1", "stor2"} {
		got, err := lab.SSH(h, "findmnt -n -o FSTYPE,TARGET /srv/node/d0; stat -c %U /srv/node/d0; grep -c /srv/node/ /etc/fstab; grep '^mount_check' /etc/swift/object-server.conf")
		if want := "xfs    /srv/node/d0\nswift\n3\nmount_check = true\n"; err != nil || got != want {
			t.Errorf("%s's disks: %v: got %q, want %q", h, err, got, want)
		}
	}
	checkActive(t, lab)
}

func testSetupAgain(t *testing.T, lab *Env, tb string) {
	out, errOut, err := lab.Benchbed("setup", "-q", tb)
	if err != nil {
		t.Fatalf("second benchbed setup: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "setup: no change; the cluster is healthy") {
		t.Errorf("second setup changed something:\n%s", out)
	}
}

func testMissingPackage(t *testing.T, lab *Env, tb string) {
	text, err := os.ReadFile(tb)
	if err != nil {
		t.Fatal(err)
	}
	// stor1 and stor2 are one host block with for_each: stor2's element
	// alone asks for the package no repository has.
	bad := strings.Replace(string(text), `host "stor" {`, "host \"stor\" {\n  packages = each.key == \"stor2\" ? [\"swift-object\", \"benchbed-no-such-package\"] : [\"swift-object\"]", 1)
	if bad == string(text) {
		t.Fatalf("%s has no host \"stor\" block (stor1 and stor2)", tb)
	}
	badPath := filepath.Join(filepath.Dir(tb), "missing-package.hcl")
	if err := os.WriteFile(badPath, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lab.Benchbed("setup", "-q", badPath)
	if err == nil {
		t.Fatalf("setup with a package no repository has succeeded:\n%s", out)
	}
	if want := "stor2: no package benchbed-no-such-package in the host's apt repositories; nothing was installed"; !strings.Contains(errOut, want) {
		t.Errorf("setup's error lacks %q:\nstdout:\n%s\nstderr:\n%s", want, out, errOut)
	}
	out, errOut, err = lab.Benchbed("setup", "-q", tb)
	if err != nil || !strings.Contains(out, "setup: no change; the cluster is healthy") {
		t.Errorf("after the failed setup, setup changed something: %v\n%s\n%s", err, out, errOut)
	}
}

func testSweep(t *testing.T, lab *Env, tb string) {
	before := snapshot(t, lab)
	out, errOut, err := lab.Benchbed("sweep", tb, "--only", "normal", "--only", "servers_per_port=2")
	if err != nil {
		t.Fatalf("benchbed sweep: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	for _, v := range []string{"normal", "servers_per_port=2"} {
		if row := tableRow(out, v); row == nil || row[len(row)-1] != "0" {
			t.Errorf("table row of %s: %q, want one ending in 0 errors:\n%s", v, row, out)
		}
	}
	if after := snapshot(t, lab); after != before {
		t.Errorf("confs and rings differ after the sweep:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	checkActive(t, lab)
	if strings.Contains(out+errOut, "distro-bench-key") {
		t.Errorf("the sweep printed the auth key")
	}
}

func testDown(t *testing.T, lab *Env, _ string) {
	if out, err := Script("down"); err != nil {
		t.Fatalf("down: %v\n%s", err, out)
	}
	broughtUp = false
	mounts, _ := os.ReadFile("/proc/mounts")
	if strings.Contains(string(mounts), "benchbed-distro") {
		t.Errorf("mounts left:\n%s", mounts)
	}
	if l := loopsLeft(); l != "" {
		t.Errorf("loop devices left:\n%s", l)
	}
	for _, p := range []string{Dir, "/run/netns/bbd-stor1", "/sys/class/net/bbr1", "/sys/class/net/bd-stor1"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is left", p)
		}
	}
}
