package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchbed/internal/importer"
	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/render"
	"benchbed/templates"
	"benchbed/templates/catalog"
)

// importVars are the imported testbed's secrets: lab.hcl's tempauth key.
var importVars = []string{"--var", "tempauth_bench_bench_key=lab-bench-key"}

// TestImport imports the lab as lab.hcl's setup leaves it (a testbed not
// written for the import), checks that it changed nothing there, and
// proves the round trip: the imported testbed
// validates; its baseline renders every conf setting for setting as the
// hosts have it (and counts those byte for byte); its rings equal the live
// builders device by device; its baseline and lab.hcl's first variant
// render the same settings (diff's comparison); no secret is in clear;
// and a short sweep of it runs.
func TestImport(t *testing.T) {
	lab := Lab(t)
	setUp(t, lab, lab.Testbed)
	dir := t.TempDir()
	out := filepath.Join(dir, "imported.hcl")
	client := filepath.Join(lab.Dir, "client")
	before := readOnlyState(t, lab)
	stdout, stderr, err := lab.Benchbed(t, "import", "--out", out, "--ssh-config", lab.SSHConfig,
		"--identity", filepath.Join(client, "id_ed25519"), "--known-hosts", filepath.Join(client, "known_hosts"),
		"--user", "root", "proxy1", "stor1", "stor2", "client1")
	t.Logf("benchbed import's stderr:\n%s", stderr)
	if err != nil {
		t.Fatalf("benchbed import: %v\n%s", err, stdout)
	}
	// setUp left every server running: the import must see each one
	// (its probe once lost every process listed after its own shell).
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, " runs here") || strings.Contains(l, "but not running") {
			t.Errorf("the import did not see a server that runs: %s", l)
		}
	}
	if !strings.Contains(stderr, "read only") || stdout != "" {
		t.Errorf("import says nothing of being read only, or wrote on stdout with --out:\n%s", stdout)
	}
	if after := readOnlyState(t, lab); after != before {
		t.Errorf("the import changed the hosts:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	text, err := os.ReadFile(out)
	must(t, err)
	t.Logf("the imported testbed:\n%s", text)
	t.Run("NoSecretInClear", func(t *testing.T) { checkNoLabSecret(t, lab, string(text)+stdout+stderr) })
	// setup made swift.conf's hash path prefix and suffix (lab.hcl leaves
	// them to the template's placeholders): the import's variables, given
	// as a user would, from the environment.
	hashes := labHashes(t, lab)
	for k, v := range hashes {
		t.Setenv("BENCHBED_VAR_"+k, v)
	}
	if o, e, err := lab.Benchbed(t, append([]string{"validate", out}, importVars...)...); err != nil {
		t.Fatalf("benchbed validate of the imported testbed: %v\n%s\n%s", err, o, e)
	}
	vars := map[string]string{"tempauth_bench_bench_key": "lab-bench-key"}
	for k, v := range hashes {
		vars[k] = v
	}
	imported := loadWithVars(t, out, vars)
	t.Run("BaselineRendersTheHostsConfs", func(t *testing.T) { checkRenderMatchesHosts(t, lab, imported) })
	t.Run("RingsEqualTheLiveOnes", func(t *testing.T) { checkImportedRings(t, lab, imported) })
	t.Run("NoSettingDifferenceWithLabHCL", func(t *testing.T) {
		// lab.hcl renders the template's hash placeholders, which setup
		// replaces with the cluster's values as it pushes swift.conf (and
		// a sweep, with the same ones): the import's baseline is compared
		// with the same placeholders.
		vars := map[string]string{"tempauth_bench_bench_key": "lab-bench-key",
			"swift_hash_path_prefix": "benchbed-prefix", "swift_hash_path_suffix": "benchbed-suffix"}
		imported := loadWithVars(t, out, vars)
		orig := loadWithVars(t, lab.Testbed, nil)
		a, err := render.Render(orig, orig.Variants[0], render.Options{})
		must(t, err)
		b, err := render.Render(imported, imported.Variant("baseline"), render.Options{})
		must(t, err)
		if d := render.DiffRenderings(a, b); !d.Empty() {
			var sb strings.Builder
			must(t, d.WriteText(&sb, imported.Secrets()))
			t.Errorf("lab.hcl's %s against the import's baseline:\n%s", orig.Variants[0].Name, sb.String())
		}
	})
	t.Run("OneProxyFindsTheRest", func(t *testing.T) {
		o, e, err := lab.Benchbed(t, "import", "--ssh-config", lab.SSHConfig,
			"--identity", filepath.Join(client, "id_ed25519"), "--known-hosts", filepath.Join(client, "known_hosts"),
			"--user", "root", "proxy1")
		if err != nil {
			t.Fatalf("benchbed import proxy1: %v\n%s", err, e)
		}
		if !strings.Contains(e, "the rings name 2 hosts too: reading 198.18.0.21, 198.18.0.22") {
			t.Errorf("import of proxy1 alone does not say it reads the rings' other hosts:\n%s", e)
		}
		for _, want := range []string{`host "stor" {`, `stor1 = "198.18.0.21"`, `stor2 = "198.18.0.22"`, `address = each.value`, `clients = ["proxy1"]`} {
			if !strings.Contains(o, want) {
				t.Errorf("no %q in the import of proxy1 alone:\n%s", want, o)
			}
		}
		checkNoLabSecret(t, lab, o+e)
	})
	t.Run("SweepOfTheImportedTestbed", func(t *testing.T) {
		short := strings.NewReplacer(`"64KiB" = 1000`, `"64KiB" = 100`, "run_seconds     = 20", "run_seconds     = 5").Replace(string(text))
		tb := filepath.Join(dir, "imported-short.hcl")
		must(t, os.WriteFile(tb, []byte(short), 0o644))
		o, e, err := lab.Benchbed(t, append([]string{"sweep", "--runs-dir", filepath.Join(dir, "runs"), tb}, importVars...)...)
		if err != nil {
			t.Fatalf("benchbed sweep of the imported testbed: %v\n%s\n%s", err, o, e)
		}
		if !strings.Contains(o, "| the cluster as imported |") {
			t.Errorf("the sweep's table has no row of the baseline (its description):\n%s", o)
		}
		t.Logf("the imported testbed's sweep:\n%s", o)
		checkNoLabSecret(t, lab, o+e)
	})
}

// readOnlyState is what an import must leave as it is on the Swift hosts:
// labState (confs, rings, builders, benchbed's files, listening ports) and
// every file of /etc/swift and /var/run/swift with its size and mtime.
func readOnlyState(t *testing.T, lab *Env) string {
	t.Helper()
	return labState(t, lab) + onSwiftHosts(t, lab, "find /etc/swift /var/run/swift -printf '%p %s %T@\\n' | sort")
}

// loadWithVars decodes a testbed file with variables, failing on errors.
func loadWithVars(t *testing.T, path string, vars map[string]string) *plan.Testbed {
	t.Helper()
	tb, diags := decode.Load(path, decode.LoadOptions{Vars: vars})
	if diags.HasErrors() {
		t.Fatalf("%s: %v", path, diags)
	}
	return tb
}

// labHashes are swift.conf's hash path prefix and suffix on proxy1.
func labHashes(t *testing.T, lab *Env) map[string]string {
	t.Helper()
	out := map[string]string{}
	f := hostConf(t, lab, "proxy1", render.SwiftConfPath)
	for _, k := range []string{"swift_hash_path_prefix", "swift_hash_path_suffix"} {
		if v, ok := f.Value("swift-hash", k); ok {
			out[k] = v
		}
	}
	return out
}

// checkNoLabSecret fails when text holds a secret of the lab: the tempauth
// key, or swift.conf's hash path prefix or suffix as the hosts have them.
func checkNoLabSecret(t *testing.T, lab *Env, text string) {
	t.Helper()
	secrets := []string{"lab-bench-key"}
	for _, v := range labHashes(t, lab) {
		secrets = append(secrets, v)
	}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("secret %q in clear", s)
		}
	}
}

// hostConf reads a conf of a lab host from the lab's state directory (its
// /etc/swift is bound from there).
func hostConf(t *testing.T, lab *Env, host, path string) *templates.File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(lab.Dir, "hosts", host, "etc-swift", strings.TrimPrefix(path, "/etc/swift/")))
	must(t, err)
	f, err := templates.Parse(host+":"+path, b)
	must(t, err)
	return f
}

// checkRenderMatchesHosts compares every conf the baseline renders with the
// host's, setting for setting (Swift 2.30.1's defaults standing for unset
// keys), and logs how many are byte for byte the same.
func checkRenderMatchesHosts(t *testing.T, lab *Env, tb *plan.Testbed) {
	r, err := render.Render(tb, tb.Variant("baseline"), render.Options{})
	must(t, err)
	cat, err := catalog.Load("2.30.1")
	must(t, err)
	same := 0
	for _, c := range r.Confs {
		live := hostConf(t, lab, c.Host.Name, c.Path)
		conf := "swift"
		if c.Service != nil {
			conf = c.Service.Name
		}
		if diffs := importer.SettingDiffs(cat, conf, live, c.File); len(diffs) > 0 {
			t.Errorf("%s:%s: the baseline renders otherwise: %s", c.Host.Name, c.Path, strings.Join(diffs, "; "))
		}
		raw, err := os.ReadFile(filepath.Join(lab.Dir, "hosts", c.Host.Name, "etc-swift", strings.TrimPrefix(c.Path, "/etc/swift/")))
		must(t, err)
		if string(raw) == string(c.File.Bytes()) {
			same++
		}
	}
	if len(r.Confs) != 10 {
		t.Errorf("the baseline renders %d confs, want 10 (swift.conf and the server's on proxy1, swift.conf and 3 servers' on stor1 and stor2)", len(r.Confs))
	}
	t.Logf("%d of %d confs byte for byte as the hosts have them, the others setting for setting", same, len(r.Confs))
}

// liveRingsPy prints every builder's devices on proxy1: "ring ip port
// device weight" lines.
const liveRingsPy = `/usr/bin/python3 - <<'PY'
import glob, os
from swift.common.ring import RingBuilder
for f in sorted(glob.glob("/etc/swift/*.builder")):
    b = RingBuilder.load(f)
    for d in b.devs:
        if d is not None:
            print("%s %s %d %s %g" % (os.path.basename(f)[:-8], d["ip"], d["port"], d["device"], d["weight"]))
PY`

// checkImportedRings compares the baseline's ring layout with the live
// builders on proxy1, device by device.
func checkImportedRings(t *testing.T, lab *Env, tb *plan.Testbed) {
	out, err := lab.SSH(t, "proxy1", liveRingsPy)
	if err != nil {
		t.Fatalf("reading the live builders: %v\n%s", err, out)
	}
	live := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		live[l] = true
	}
	l, err := tb.Layout(tb.Variant("baseline"))
	must(t, err)
	n := 0
	for _, rl := range l.Rings {
		for _, d := range rl.Devices {
			line := strings.Join([]string{rl.Ring.Name, d.IP, strconv.Itoa(d.Port), d.Name, strconv.FormatFloat(d.Weight, 'g', -1, 64)}, " ")
			if !live[line] {
				t.Errorf("the imported testbed has %q, the live builders do not", line)
			}
			delete(live, line)
			n++
		}
	}
	for l := range live {
		t.Errorf("the live builders have %q, the imported testbed does not", l)
	}
	t.Logf("%d ring devices, each the same in the imported testbed and the live builders", n)
}
