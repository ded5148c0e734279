package setup

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"benchbed/internal/cluster"
	"benchbed/internal/labtest"
	"benchbed/plan"
)

func distroTestbed(t *testing.T) *plan.Testbed {
	t.Helper()
	return labtest.Testbed(t, "distro/distro.hcl")
}

// TestHostPackages: per role and package manager, memcached with a proxy,
// the ring tools on the builder, xfsprogs for disks to format; a service's
// and a host's own lists replace the defaults.
func TestHostPackages(t *testing.T) {
	tb := distroTestbed(t)
	proxy, stor := tb.Host("proxy1"), tb.Host("stor1")
	cases := []struct {
		h    *plan.Host
		pm   string
		want []string
	}{
		{proxy, cluster.PackagerApt, []string{"swift-proxy", "memcached", "swift"}},
		{stor, cluster.PackagerApt, []string{"swift-object", "swift-container", "swift-account", "xfsprogs"}},
		{stor, cluster.PackagerDnf, []string{"openstack-swift-object", "openstack-swift-container", "openstack-swift-account", "xfsprogs"}},
		{tb.Host("client1"), cluster.PackagerApt, nil},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, hostPackages(tb, c.h, proxy, c.pm)); diff != "" {
			t.Errorf("%s (%s) (-want +got):\n%s", c.h.Name, c.pm, diff)
		}
	}
	svc := tb.Service("object-server")
	svc.Packages, svc.PackagesSet = []string{"my-swift-object"}, true
	if got := hostPackages(tb, stor, proxy, cluster.PackagerApt); got[0] != "my-swift-object" {
		t.Errorf("a service's packages do not replace its default: %q", got)
	}
	tb.Generics = []*plan.Generic{{Name: "nginx", Role: "proxy", Packages: []string{"nginx-light"}, PackagesSet: true}}
	if diff := cmp.Diff([]string{"swift-proxy", "memcached", "nginx-light", "swift"}, hostPackages(tb, proxy, proxy, cluster.PackagerApt)); diff != "" {
		t.Errorf("a generic service's packages are not its host's (-want +got):\n%s", diff)
	}
	stor.Packages, stor.PackagesSet = []string{"only-this"}, true
	if diff := cmp.Diff([]string{"only-this"}, hostPackages(tb, stor, proxy, cluster.PackagerApt)); diff != "" {
		t.Errorf("a host's packages are not its whole list:\n%s", diff)
	}
}

// TestAptScript runs the apt install script against stubs: nothing missing
// changes nothing and runs no apt-get; a package with no candidate is
// named and nothing is installed; otherwise only the missing ones are
// installed, non-interactively, under a policy-rc.d that is removed after.
func TestAptScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIP: no bash")
	}
	run := func(installed, available string) (string, int, string) {
		dir := t.TempDir()
		stubs := map[string]string{
			"dpkg-query": `for a; do p=$a; done; case " $STUB_INSTALLED " in *" $p "*) echo installed ;; esac`,
			"apt-cache":  `case " $STUB_AVAILABLE " in *" $2 "*) echo "  Candidate: 1.0" ;; *) echo "  Candidate: (none)" ;; esac`,
			"apt-get":    `echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> "$STUB_LOG"`,
		}
		for name, body := range stubs {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		log := filepath.Join(dir, "log")
		script := strings.NewReplacer("/usr/sbin/policy-rc.d", dir+"/policy-rc.d", installLog, dir+"/install.log").
			Replace(installScript(cluster.PackagerApt, []string{"swift-object", "xfsprogs"}))
		cmd := exec.Command("bash", "-c", script)
		cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin", "STUB_INSTALLED=" + installed, "STUB_AVAILABLE=" + available, "STUB_LOG=" + log}
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		ran, _ := os.ReadFile(log)
		if _, err := os.Stat(dir + "/policy-rc.d"); err == nil {
			t.Errorf("policy-rc.d left behind")
		}
		return string(out), code, string(ran)
	}
	if out, code, ran := run("swift-object xfsprogs", ""); out != "" || code != 0 || ran != "" {
		t.Errorf("all installed: out %q, exit %d, ran %q", out, code, ran)
	}
	if out, code, ran := run("", "swift-object"); code != absentCode || strings.Contains(ran, "install") || out != "" {
		t.Errorf("xfsprogs absent: out %q, exit %d, ran %q", out, code, ran)
	}
	out, code, ran := run("swift-object", "swift-object xfsprogs")
	if code != 0 || out != "installed xfsprogs\n" || !strings.Contains(ran, "install -y --no-install-recommends") ||
		!strings.Contains(ran, "DEBIAN_FRONTEND=noninteractive") || strings.Contains(ran, "install -y --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold swift-object") {
		t.Errorf("xfsprogs missing: out %q, exit %d, ran %q", out, code, ran)
	}
}

// TestECPackages: the EC packages on the proxy and object hosts under apt,
// not on the client, nor where the host's own list replaces the defaults.
func TestECPackages(t *testing.T) {
	tb := labtest.Testbed(t, "lab/policies-lab.hcl")
	proxy := tb.Host("proxy1")
	for _, c := range []struct {
		host, pm string
		ec       bool
	}{{"proxy1", cluster.PackagerApt, true}, {"stor1", cluster.PackagerApt, true}, {"client1", cluster.PackagerApt, false}, {"stor1", cluster.PackagerDnf, false}} {
		got := hostPackages(tb, tb.Host(c.host), proxy, c.pm)
		if has := slices.Contains(got, "python3-pyeclib") && slices.Contains(got, "liberasurecode1"); has != c.ec {
			t.Errorf("%s (%s): %q; EC packages wanted: %v", c.host, c.pm, got, c.ec)
		}
	}
	stor := tb.Host("stor2")
	stor.Packages, stor.PackagesSet = []string{"only-this"}, true
	if diff := cmp.Diff([]string{"only-this"}, hostPackages(tb, stor, proxy, cluster.PackagerApt)); diff != "" {
		t.Errorf("a host's own packages (-want +got):\n%s", diff)
	}
}
