package e2e

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostFiles is, per Swift host, the checksum of every conf, ring and
// builder in /etc/swift and the name of any file a sweep left there.
func hostFiles(t *testing.T, lab *Env, hosts ...string) map[string]string {
	t.Helper()
	if len(hosts) == 0 {
		hosts = swiftHosts
	}
	m := map[string]string{}
	for _, h := range hosts {
		out, err := lab.SSH(t, h, "cd /etc/swift && sha256sum *.conf *.ring.gz $(ls *.builder 2>/dev/null); ls -A | grep benchbed; true")
		if err != nil {
			t.Fatalf("%s: %v\n%s", h, err, out)
		}
		m[h] = out
	}
	return m
}

func equalFiles(a, b map[string]string) bool {
	for h, s := range a {
		if b[h] != s {
			return false
		}
	}
	return len(a) == len(b)
}

// labAsBefore wants hosts' files as before the first case, no sweep lock
// on them or client1, their Swift servers healthy on the ports of the
// first variant and none on the per-disk ports of servers_per_port.
func labAsBefore(t *testing.T, f *fault, hosts ...string) {
	t.Helper()
	for h, s := range hostFiles(t, f.lab, hosts...) {
		if s != f.before[h] {
			t.Errorf("%s: /etc/swift differs from before:\nbefore:\n%s\nafter:\n%s", h, f.before[h], s)
		}
	}
	for _, h := range append([]string{"client1"}, hosts...) {
		if out, err := f.lab.SSH(t, h, "if [ -e "+lockDir+" ]; then cat "+lockDir+"/holder; else echo unlocked; fi"); err != nil || strings.TrimSpace(out) != "unlocked" {
			t.Errorf("%s: sweep lock still held (%v): %s", h, err, out)
		}
	}
	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}
	for _, h := range hosts {
		for _, port := range basePorts[h] {
			u := fmt.Sprintf("http://%s:%d/healthcheck", hostAddr[h], port)
			resp, err := hc.Get(u)
			if err != nil {
				t.Errorf("%s: %s: %v", h, u, err)
				continue
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %s: %s", h, u, resp.Status)
			}
		}
		if strings.HasPrefix(h, "stor") {
			out, err := f.lab.SSH(t, h, "ss -Hltn '( sport >= :6210 and sport <= :6239 )'")
			if err != nil || strings.TrimSpace(out) != "" {
				t.Errorf("%s: servers still listen on servers_per_port's ports (%v):\n%s", h, err, out)
			}
		}
	}
}

// lockDir is custody.LockDir, spelt out: the test checks the contract.
const lockDir = "/var/tmp/benchbed/sweep.lock"

// hostAddr and basePorts are lab.hcl's addresses and the ports its first
// variant's servers answer on (proxy bind_port, the rings' ports).
var (
	hostAddr  = map[string]string{"proxy1": "198.18.0.11", "stor1": "198.18.0.21", "stor2": "198.18.0.22"}
	basePorts = map[string][]int{"proxy1": {8080}, "stor1": {6200, 6201, 6202}, "stor2": {6200, 6201, 6202}}
)

// locksHeldBy wants every lab host's sweep lock held by run id.
func locksHeldBy(t *testing.T, lab *Env, id string) {
	t.Helper()
	for _, h := range Hosts {
		out, err := lab.SSH(t, h, "cat "+lockDir+"/holder")
		if err != nil || !strings.Contains(out, `"run":"`+id+`"`) {
			t.Errorf("%s: the lock is not %s's (%v): %s", h, id, err, out)
		}
	}
}

// nsProcs lists the command lines of host's processes (those in its
// network namespace) that contain sub.
func nsProcs(t *testing.T, host, sub string) []string {
	t.Helper()
	out, err := exec.Command("ip", "netns", "pids", host).Output()
	if err != nil {
		t.Fatalf("ip netns pids %s: %v", host, err)
	}
	var ps []string
	for _, pid := range strings.Fields(string(out)) {
		b, _ := os.ReadFile("/proc/" + pid + "/cmdline")
		if c := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(c, sub) {
			ps = append(ps, pid+": "+c)
		}
	}
	return ps
}

// killSSHD kills every sshd of host, its listener and its sessions, and
// removes its pid file: the host is lost to SSH (its Swift servers keep
// running) until bringBack.
func killSSHD(t *testing.T, host string) {
	t.Helper()
	out, err := exec.Command("ip", "netns", "pids", host).Output()
	if err != nil {
		t.Fatalf("ip netns pids %s: %v", host, err)
	}
	n := 0
	for _, f := range strings.Fields(string(out)) {
		comm, _ := os.ReadFile("/proc/" + f + "/comm")
		pid, err := strconv.Atoi(f)
		if err == nil && strings.TrimSpace(string(comm)) == "sshd" && syscall.Kill(pid, syscall.SIGKILL) == nil {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("%s: no sshd to kill", host)
	}
	// Until the machine's init reaps it, the killed listener is a zombie
	// still called sshd, which testbeds/lab/up would take for a running one.
	must(t, os.Remove(filepath.Join(LabDir, "hosts", host, "sshd.pid")))
}

// bringBack starts again any lab sshd that is gone (testbeds/lab/up keeps
// what runs).
func bringBack(t *testing.T) {
	t.Helper()
	if out, err := script("up"); err != nil {
		t.Fatalf("lab up: %v\n%s", err, out)
	}
}

// changedKnownHosts writes a copy of the lab's known_hosts where host's
// key is another one, and returns its path and content.
func changedKnownHosts(t *testing.T, f *fault, host string) (string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(LabDir, "client", "known_hosts"))
	must(t, err)
	key := filepath.Join(f.dir, "other_host_key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "other", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	must(t, err)
	other := strings.Join(strings.Fields(string(pub))[:2], " ")
	lines := strings.Split(string(b), "\n")
	n := 0
	for i, l := range lines {
		if names, _, ok := strings.Cut(l, " "); ok && slices.Contains(strings.Split(names, ","), host) {
			lines[i], n = names+" "+other, n+1
		}
	}
	if n == 0 {
		t.Fatalf("the lab's known_hosts has no line for %s:\n%s", host, b)
	}
	kh := filepath.Join(f.dir, "known_hosts")
	s := strings.Join(lines, "\n")
	must(t, os.WriteFile(kh, []byte(s), 0o600))
	return kh, s
}

// releaseLocks removes any sweep lock a failed case left on the lab (after
// bringing back a host it lost), so that the tests after TestFault can
// sweep; the failure itself is already reported.
func (f *fault) releaseLocks(t *testing.T) {
	if !t.Failed() {
		return
	}
	bringBack(t)
	for _, h := range Hosts {
		if out, err := f.lab.SSH(t, h, "rm -rf "+lockDir); err != nil {
			t.Errorf("%s: removing the sweep lock: %v\n%s", h, err, out)
		}
	}
}

// testNoSecret looks for the lab's auth key, any tempauth token and the
// cluster's swift.conf hashes in every output of the cases above and every
// file of their runs (journals included).
func testNoSecret(t *testing.T, f *fault) {
	secrets := []string{"lab-bench-key", "AUTH_tk"}
	conf, err := f.lab.SSH(t, "proxy1", "sed -n 's/^swift_hash_path_\\(prefix\\|suffix\\) *= *//p' /etc/swift/swift.conf")
	if err != nil {
		t.Fatalf("proxy1: swift.conf: %v\n%s", err, conf)
	}
	secrets = append(secrets, strings.Fields(conf)...)
	if len(secrets) != 4 {
		t.Fatalf("want the hash path prefix and suffix of swift.conf, got %q", conf)
	}
	f.mu.Lock()
	outs := f.out.String()
	f.mu.Unlock()
	if outs == "" {
		t.Fatal("no output was kept: the cases above did not run")
	}
	files := 0
	err = filepath.WalkDir(filepath.Join(f.dir, "runs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds a secret (%.4s...)", p, s)
			}
		}
		return nil
	})
	must(t, err)
	if journals, _ := filepath.Glob(filepath.Join(f.dir, "runs", "*", "*", "*", "journal*")); files == 0 || len(journals) == 0 {
		t.Fatalf("no run file (%d) or journal (%v) to look into: the cases above did not run", files, journals)
	}
	for _, s := range secrets {
		if strings.Contains(outs, s) {
			t.Errorf("benchbed's output holds a secret (%.4s...)", s)
		}
	}
	t.Logf("no secret in %d run files and %d bytes of output", files, len(outs))
}
