package render

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/plantest"
	"benchbed/templates"
)

const systemPython = "/usr/bin/python3" // Debian's swift-* scripts use it

// swiftStackFilters are seed 000's SwiftStack middleware, which Debian's
// Swift does not have.
var swiftStackFilters = map[string]bool{"swc": true, "swiftstack_authen": true, "swiftstack_authz": true}

// needSwift skips the test, saying why, when Debian's Swift is missing.
func needSwift(t *testing.T) {
	t.Helper()
	out, err := exec.Command(systemPython, "-c", "import swift.common.wsgi").CombinedOutput()
	if err != nil {
		t.Skipf("SKIP: Swift is not installed (%s -c 'import swift.common.wsgi': %v %s); "+
			"install Debian's python3-swift (scripts/deps.sh) to run this acceptance test", systemPython, err, bytes.TrimSpace(out))
	}
}

// appName returns the name of f's [app:...] section named by its pipeline.
func appName(f *templates.File) string {
	if p := f.Pipeline(); len(p) > 0 {
		return p[len(p)-1]
	}
	return ""
}

// expectedPorts is what Swift must find for conf c: the ring ports of its
// role on its host with servers_per_port, else bind_port.
func expectedPorts(l *plan.Layout, c *Conf) []int {
	var ls []int
	for _, x := range listeners(l, c) {
		ls = append(ls, x.port)
	}
	return ls
}

func label(tb *plan.Testbed, v *plan.Variant, c *Conf) string {
	return fmt.Sprintf("%s %s %s:%s", tb.Name, v.Name, c.Host.Name, c.Path)
}

func sameInts(a, b []int) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func dropFilters(f *templates.File, drop map[string]bool) []string {
	var kept, dropped []string
	for _, p := range f.Pipeline() {
		if drop[p] && f.Section("filter:"+p) == nil {
			dropped = append(dropped, p)
			continue
		}
		kept = append(kept, p)
	}
	if len(dropped) > 0 {
		f.Set("pipeline:main", "pipeline", templates.Value{Value: strings.Join(kept, " ")})
	}
	return dropped
}

// TestRenderedConfsAcceptedBySwift: every server conf of every testbed,
// variant and host is read and loaded by Debian's Swift itself, which finds
// in the variant's rings exactly the ports the layout gives. Seed 000's
// SwiftStack middleware (swc, swiftstack_authen, swiftstack_authz) is not
// in Debian's Swift: such a proxy conf is checked twice, as rendered (Swift
// must refuse it, naming the filter: render's warning is right) and with
// those filters taken out of the pipeline (Swift must accept the rest).
func TestRenderedConfsAcceptedBySwift(t *testing.T) {
	needSwift(t)
	dir := t.TempDir()
	var rings []swiftRing
	var checks, refused []swiftCheck
	ringDirs := map[string]string{}
	for _, file := range plantest.ShippedTestbeds(t) {
		tb, diags := decode.Load(file, decode.LoadOptions{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", file, diags.Error())
		}
		for _, v := range tb.Variants {
			r, err := Render(tb, v, Options{})
			if err != nil {
				t.Fatal(err)
			}
			key := tb.Name + strings.SplitN(LayoutText(r.Layout), "\n", 2)[1]
			rd, ok := ringDirs[key]
			if !ok {
				rd = mkdir(t, dir, fmt.Sprintf("rings%d", len(ringDirs)))
				ringDirs[key] = rd
				rings = append(rings, ringsFor(r.Layout, tb, rd)...)
			}
			vdir := mkdir(t, dir, fmt.Sprintf("v%d", len(checks)+len(refused)))
			c, rf := swiftChecks(t, tb, v, r, rd, vdir)
			checks, refused = append(checks, c...), append(refused, rf...)
		}
	}
	res := runSwift(t, dir, rings, append(append([]swiftCheck(nil), checks...), refused...))
	for _, c := range checks {
		r := res[c.Conf]
		switch {
		case !r.OK:
			t.Errorf("%s: Swift refuses it: %s", c.label, r.Error)
		case !sameInts(r.Ports, c.want):
			t.Errorf("%s: Swift finds ports %v, the layout gives %v", c.label, r.Ports, c.want)
		}
	}
	for _, c := range refused {
		if r := res[c.Conf]; r.OK || !strings.Contains(r.Error, "swc") {
			t.Errorf("%s as rendered, with SwiftStack's swc: Swift should refuse it naming swc, got ok=%v %q", c.label, r.OK, r.Error)
		}
	}
	t.Logf("Swift accepted %d rendered server confs (%d rings built); %d proxy confs with SwiftStack filters were refused as rendered and accepted without them",
		len(checks), len(rings), len(refused))
	if len(checks) < 50 {
		t.Fatalf("only %d confs checked", len(checks))
	}
}

// swiftChecks writes the confs of one rendering under vdir with swift_dir
// pointing at the rings in rd, and returns the checks: confs Swift must
// accept, and proxy confs as rendered with SwiftStack filters it must refuse.
func swiftChecks(t *testing.T, tb *plan.Testbed, v *plan.Variant, r *Rendering, rd, vdir string) (accept, refuse []swiftCheck) {
	for _, c := range r.Confs {
		if c.Service == nil || !c.File.IsPaste() {
			continue
		}
		sc := writeConf(t, r.Conf(c.Host.Name, SwiftConfPath).File, filepath.Join(vdir, c.Host.Name, "swift.conf"))
		f := c.File.Clone()
		f.Set("DEFAULT", "swift_dir", templates.Value{Value: rd})
		base := filepath.Join(vdir, c.Host.Name, filepath.Base(c.Path))
		check := swiftCheck{SwiftConf: sc, App: appName(f), want: expectedPorts(r.Layout, c), label: label(tb, v, c)}
		if dropped := dropFilters(f.Clone(), swiftStackFilters); len(dropped) > 0 {
			rc := check
			rc.Conf = writeConf(t, f, base+".as-rendered")
			refuse = append(refuse, rc)
			dropFilters(f, swiftStackFilters)
			check.label += " without " + strings.Join(dropped, ",")
		}
		check.Conf = writeConf(t, f, base)
		accept = append(accept, check)
	}
	return accept, refuse
}

func writeConf(t *testing.T, f *templates.File, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mkdir(t *testing.T, parent, name string) string {
	t.Helper()
	p := filepath.Join(parent, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSwiftAcceptanceRefusesBadConfs is the acceptance test's control: the
// same checks refuse a conf with an unknown middleware, a non-numeric
// workers, and find no ports for servers_per_port on a host the rings lack.
func TestSwiftAcceptanceRefusesBadConfs(t *testing.T) {
	needSwift(t)
	tb := plantest.LoadSeed(t)
	v := tb.Variant("servers_per_port=2")
	r, err := Render(tb, v, Options{Hosts: []string{"stor1"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rd := mkdir(t, dir, "rings")
	good := r.Conf("stor1", "/etc/swift/object-server.conf").File
	sc := writeConf(t, r.Conf("stor1", SwiftConfPath).File, filepath.Join(dir, "swift.conf"))
	bad := map[string]func(f *templates.File){
		"unknown filter": func(f *templates.File) {
			f.Set("filter:recon", "use", templates.Value{Value: "egg:swift#no_such_thing"})
		},
		"bad workers": func(f *templates.File) {
			f.Set("DEFAULT", "servers_per_port", templates.Value{Value: "0"})
			f.Set("DEFAULT", "workers", templates.Value{Value: "lots"})
		},
		"foreign host": func(f *templates.File) { f.Set("DEFAULT", "bind_ip", templates.Value{Value: "203.0.113.9"}) },
	}
	var checks []swiftCheck
	for name, breakIt := range bad {
		f := good.Clone()
		f.Set("DEFAULT", "swift_dir", templates.Value{Value: rd})
		breakIt(f)
		checks = append(checks, swiftCheck{SwiftConf: sc, App: "object-server", label: name,
			Conf: writeConf(t, f, filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".conf"))})
	}
	res := runSwift(t, dir, ringsFor(r.Layout, tb, rd), checks)
	for _, c := range checks {
		got := res[c.Conf]
		t.Logf("%s: ok=%v ports=%v error=%q", c.label, got.OK, got.Ports, got.Error)
		if c.label == "foreign host" {
			if !got.OK || len(got.Ports) != 0 {
				t.Errorf("%s: Swift should find no ports, got %+v", c.label, got)
			}
			continue
		}
		if got.OK {
			t.Errorf("%s: Swift accepted it", c.label)
		}
	}
}
