package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/e2e/labkit"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestLab is the local lab's whole story, in order: hosts isolated from each
// other, setup from bare hosts, a round trip with the swift CLI from
// client1, setup again changes nothing, preflight checks the settings
// against each host's own Swift, one more disk is a ring change that
// keeps the data, a broken host is named; that down leaves nothing, Main
// checks at the binary's end (once, after every test).
//
// This file sorts before every other test file of the package, so that
// TestLab, the first test, finds the lab as testbeds/lab/up made it: the
// binary brings the lab up once and sets it up from bare hosts once.
func TestLab(t *testing.T) {
	lab := bareLab(t)
	steps := []struct {
		name string
		fn   func(*testing.T, *Env)
	}{
		{"HostsSeeOnlyTheirOwnFiles", testIsolation},
		{"SetupFromBareHosts", testSetup},
		{"SwiftCLIRoundTripFromClient", testSwiftCLI},
		{"SetupAgainChangesNothing", testSetupAgain},
		{"PreflightChecksEachHostsSwift", testPreflightChecksEachHostsSwift},
		{"OneMoreDiskIsARingChange", testOneMoreDisk},
		{"BrokenHostIsNamed", testBrokenHost},
	}
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) { s.fn(t, lab) }) {
			t.Fatalf("step %s failed; later steps depend on it", s.name)
		}
	}
}

// testIsolation: each host has its own /srv and /var/tmp, and sees neither
// the other hosts' state nor the client key.
func testIsolation(t *testing.T, lab *Env) {
	if out, err := lab.SSH(t, "stor1", "touch /srv/node/only-on-stor1 /var/tmp/only-on-stor1 && ls /srv/node"); err != nil {
		t.Fatalf("stor1: %v\n%s", err, out)
	}
	out, err := lab.SSH(t, "stor2", "ls -A /srv/node /var/tmp; ls /var/lib/benchbed-lab/hosts; test ! -e /var/lib/benchbed-lab/client/id_ed25519 && echo no-client-key")
	if err != nil {
		t.Fatalf("stor2: %v\n%s", err, out)
	}
	if strings.Contains(out, "only-on-stor1") || strings.Contains(out, "stor1") || !strings.Contains(out, "no-client-key") {
		t.Errorf("stor2 sees stor1's files or the client key:\n%s", out)
	}
	if _, err := os.Stat("/var/tmp/only-on-stor1"); err == nil {
		t.Errorf("stor1's /var/tmp is this machine's: a sweep lock there would lock every lab host")
	}
	if out, err := lab.SSH(t, "stor1", "rm /srv/node/only-on-stor1 /var/tmp/only-on-stor1"); err != nil {
		t.Fatalf("stor1: %v\n%s", err, out)
	}
}

func testSetup(t *testing.T, lab *Env) {
	out, errOut, err := lab.Benchbed(t, "setup", "-q", lab.Testbed)
	if err != nil {
		t.Fatalf("benchbed setup: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	for _, want := range []string{"setup: changes applied; the cluster is healthy", "started proxy-server (direct)",
		"started object-server (direct)", "ring object: created", "auth, PUT, GET, DELETE ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("setup's summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errOut, "lab-bench-key") {
		t.Errorf("setup printed the lab's auth key:\n%s\n%s", out, errOut)
	}
}

// swiftEnv is the swift CLI's auth for lab.hcl's bench user.
const swiftEnv = "export ST_AUTH=http://198.18.0.11:8080/auth/v1.0 ST_USER=bench:bench ST_KEY=lab-bench-key; "

func testSwiftCLI(t *testing.T, lab *Env) {
	script := swiftEnv + `set -e
head -c 65536 /dev/urandom > /tmp/e2e.obj
swift upload e2e /tmp/e2e.obj --object-name kept >/dev/null
swift upload e2e /tmp/e2e.obj --object-name gone >/dev/null
swift download e2e gone -o /tmp/e2e.back >/dev/null
cmp /tmp/e2e.obj /tmp/e2e.back && echo same-bytes
swift delete e2e gone >/dev/null
swift list e2e`
	out, err := lab.SSH(t, "client1", script)
	if err != nil {
		t.Fatalf("swift CLI on client1: %v\n%s", err, out)
	}
	if !strings.Contains(out, "same-bytes") || strings.TrimSpace(out[strings.Index(out, "same-bytes")+len("same-bytes"):]) != "kept" {
		t.Errorf("swift CLI round trip: want the same bytes back and only \"kept\" listed, got:\n%s", out)
	}
}

// testSetupAgain runs setup again, without -q: it changes nothing, and what
// it streams shows its progress but neither swift.conf's hashes nor the
// auth key, nor the content of the files it reads.
func testSetupAgain(t *testing.T, lab *Env) {
	hashes := swiftHashes(t, lab, "proxy1")
	out, errOut, err := lab.Benchbed(t, "setup", lab.Testbed)
	if err != nil {
		t.Fatalf("second benchbed setup: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	noSecretPrinted(t, "second setup", out+errOut, append(hashes, labKey))
	for _, want := range []string{"setup: storage policies against the hosts' swift.conf\n", "setup: rings on proxy1\n", "setup: health checks\n"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("setup's stream lacks the progress line %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "[swift-hash]") {
		t.Errorf("setup streamed a swift.conf it only reads:\n%s", errOut)
	}
	if !strings.Contains(out, "setup: no change; the cluster is healthy") {
		t.Errorf("second setup changed something:\n%s", out)
	}
	for _, h := range Hosts {
		if !strings.Contains(out, h+": no change") {
			t.Errorf("second setup: %s is not unchanged:\n%s", h, out)
		}
	}
}

// noSecretPrinted fails the test when text holds one of secrets; the
// message shows text with them replaced.
func noSecretPrinted(t *testing.T, what, text string, secrets []string) {
	t.Helper()
	for _, secret := range secrets {
		if strings.Contains(text, secret) {
			t.Errorf("%s printed a secret (%d bytes, swift.conf's hash or the auth key):\n%s",
				what, len(secret), strings.ReplaceAll(text, secret, "<SECRET>"))
		}
	}
}

// swiftHashes returns the values of the swift_hash_path_* lines of host's
// swift.conf.
func swiftHashes(t *testing.T, lab *Env, host string) []string {
	t.Helper()
	out, err := lab.SSH(t, host, "grep swift_hash_path /etc/swift/swift.conf")
	if err != nil {
		t.Fatalf("%s: reading swift.conf's hashes: %v", host, err)
	}
	var values []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if _, v, ok := strings.Cut(l, "="); ok && strings.TrimSpace(v) != "" {
			values = append(values, strings.TrimSpace(v))
		}
	}
	if len(values) != 2 {
		t.Fatalf("%s: swift.conf has %d hash path values, want the prefix and the suffix", host, len(values))
	}
	return values
}

// testOneMoreDisk gives stor1 a fifth object disk: setup adds the device and
// rebalances without a rebuild, and the object written before is still there.
// Setup streams its hosts' commands (no -q): stor1's new directory shows, no
// secret does.
func testOneMoreDisk(t *testing.T, lab *Env) {
	dir := t.TempDir()
	text, err := labkit.Inlined(lab.Testbed) // stor1 is in the lab's part
	if err != nil {
		t.Fatal(err)
	}
	// stor1 is one element of the lab's host "stor" block: an override
	// names it alone.
	text += "\noverride {\n  host \"stor1\" {\n    disks \"object\" { names = concat(local.disks, [\"d4\"]) }\n  }\n}\n"
	scen, err := os.ReadFile(filepath.Join(filepath.Dir(lab.Testbed), "64K_get_lab.scenario"))
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "lab.hcl")
	must(t, os.WriteFile(changed, []byte(text), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "64K_get_lab.scenario"), scen, 0o644))
	out, errOut, err := lab.Benchbed(t, "setup", changed)
	if err != nil {
		t.Fatalf("setup with one more disk: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	noSecretPrinted(t, "setup with one more disk", out+errOut, append(swiftHashes(t, lab, "stor1"), labKey))
	if !strings.Contains(errOut, "stor1: made /srv/node/d4\n") {
		t.Errorf("setup's stream lacks stor1's progress line \"made /srv/node/d4\":\n%s", errOut)
	}
	for _, want := range []string{"made /srv/node/d4", "ring object: add 198.18.0.21:6200/d4 (stor1)", "ring object.ring.gz from proxy1"} {
		if !strings.Contains(out, want) {
			t.Errorf("setup with one more disk lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "created") || strings.Contains(out, "remove ") {
		t.Errorf("one more disk rebuilt or removed a ring:\n%s", out)
	}
	got, err := lab.SSH(t, "client1", swiftEnv+"swift download e2e kept -o /tmp/e2e.back >/dev/null && cmp /tmp/e2e.obj /tmp/e2e.back && echo kept-intact")
	if err != nil || !strings.Contains(got, "kept-intact") {
		t.Errorf("the object written before the new disk: %v\n%s", err, got)
	}
	rb, err := lab.SSH(t, "proxy1", "swift-ring-builder /etc/swift/object.builder")
	if err != nil || !strings.Contains(rb, "up-to-date") || !strings.Contains(rb, " d4 ") {
		t.Errorf("object builder after the change (want d4 and an up-to-date ring): %v\n%s", err, rb)
	}
}

// testBrokenHost hides swift-object-server on stor2 only (a bind mount in
// its private mount namespace): setup must fail naming stor2 and what it
// lacks, and change nothing.
func testBrokenHost(t *testing.T, lab *Env) {
	if out, err := lab.SSH(t, "stor2", "mount --bind /dev/null /usr/bin/swift-object-server"); err != nil {
		t.Fatalf("stor2: %v\n%s", err, out)
	}
	defer func() {
		if out, err := lab.SSH(t, "stor2", "umount /usr/bin/swift-object-server"); err != nil {
			t.Errorf("stor2: %v\n%s", err, out)
		}
	}()
	out, errOut, err := lab.Benchbed(t, "setup", "-q", lab.Testbed)
	if err == nil {
		t.Fatalf("setup succeeded on a host without swift-object-server:\n%s", out)
	}
	if !strings.Contains(errOut, "stor2: missing /usr/bin/swift-object-server") || strings.Contains(errOut, "stor1: missing") {
		t.Errorf("setup's error does not name stor2 and the missing server:\n%s", errOut)
	}
	if strings.Contains(out, "change(s)") {
		t.Errorf("a failed preflight changed something:\n%s", out)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
