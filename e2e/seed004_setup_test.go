package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSeed004Setup: `benchbed setup` of seed004-lab (generic services
// only) pushes nginx's conf, starts nginx and iperf3 -s and passes their
// health checks; run again it changes nothing. Its cleanup stops what it
// started (by the pid files setup wrote) and removes /srv/nginx and
// /srv/www, so that proxy1 is as up left it.
func TestSeed004Setup(t *testing.T) {
	for _, c := range []string{"/usr/sbin/nginx", "iperf3", "curl"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("SKIP: seed004-lab needs %s on this machine (Debian: scripts/deps.sh installs it as root)", c)
		}
	}
	lab := Lab(t)
	tb := seed004Testbed(t, lab)
	t.Cleanup(func() {
		stop := `for n in nginx iperf3; do f=/var/run/benchbed/proxy1/$n.pid; pid=$(cat $f 2>/dev/null) || continue
  kill -TERM "-$pid" 2>/dev/null; i=0; while kill -0 "-$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; rm -f $f
done; rm -rf /srv/nginx /srv/www`
		if out, err := lab.SSH(t, "proxy1", stop); err != nil {
			t.Errorf("proxy1: stopping what setup started: %v\n%s", err, out)
		}
	})
	args := []string{"setup", "-q", "--var", "file_mb=1", tb}
	out, errOut, err := lab.Benchbed(t, args...)
	if err != nil {
		t.Fatalf("setup: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	for _, want := range []string{"wrote /srv/nginx/nginx.conf", "started nginx", "started iperf3"} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("setup does not say %q:\n%s\n%s", want, out, errOut)
		}
	}
	if got, err := lab.SSH(t, "client1", "curl -fsS http://198.18.0.11:8004/health.txt"); err != nil || got != "ok\n" {
		t.Errorf("nginx on proxy1 after setup (%v): %q", err, got)
	}
	out, errOut, err = lab.Benchbed(t, args...)
	if err != nil || !strings.Contains(out, "proxy1: no change") {
		t.Errorf("setup again: %v, want proxy1: no change\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
}
