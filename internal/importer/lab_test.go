package importer

import (
	"strings"
	"testing"

	"benchbed/internal/golden"
	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/render"
)

// labFacts are the facts of the lab as `benchbed setup testbeds/lab/lab.hcl`
// leaves it: every host's confs as lab.hcl's first variant renders them,
// the rings of its layout (builders on proxy1, the same ring files
// everywhere, region 1 and a zone per host), each server started directly
// with its pid file, Swift 2.30.1.
func labFacts(t *testing.T) (*plan.Testbed, []*Facts) {
	t.Helper()
	tb := labtest.LabTestbed(t)
	r := labtest.RenderVariant(t, tb, tb.Variants[0].Name)
	var rings []RingDump
	for _, rl := range r.Layout.Rings {
		zones := map[string]int{}
		var devs []Dev
		for i, x := range rl.Devices {
			if zones[x.Host] == 0 {
				zones[x.Host] = len(zones) + 1
			}
			devs = append(devs, Dev{ID: i, Region: 1, Zone: zones[x.Host], IP: x.IP, Port: x.Port, Device: x.Name, Weight: x.Weight})
		}
		rings = append(rings, RingDump{Name: rl.Ring.Name, PartPower: rl.Ring.PartPower, Replicas: rl.Ring.Replicas,
			MinPartHours: rl.Ring.MinPartHours, Devs: devs})
	}
	var facts []*Facts
	for _, h := range tb.Hosts {
		f := &Facts{Host: h.Name, Version: "2.30.1", Addrs: []string{h.Address}, Confs: map[string][]byte{},
			PidFiles: map[int]string{}, DevicesDir: "/srv/node", Mounts: map[string]Mount{}}
		for _, g := range h.Disks {
			for _, x := range g.Disks {
				f.DeviceDirs = append(f.DeviceDirs, x.Name)
			}
		}
		for _, c := range r.Confs {
			if c.Host.Name == h.Name {
				f.Confs[c.Path] = c.File.Bytes()
			}
		}
		for i, s := range clusterServices(tb, h) {
			pid := 100 + 10*i
			f.Procs = append(f.Procs,
				Proc{PID: pid, PPID: 1, PGID: pid, Args: []string{"/usr/bin/python3", "/usr/bin/swift-" + s.Name, s.Path, "-v"}},
				Proc{PID: pid + 1, PPID: pid, PGID: pid, Args: []string{"/usr/bin/python3", "/usr/bin/swift-" + s.Name, s.Path, "-v"}})
			f.PidFiles[pid] = "/var/run/swift/" + s.Name + ".pid"
		}
		for _, rd := range rings {
			b, file := rd, rd
			b.Kind, file.Kind, file.Sum = "builder", "ring", "sum-of-"+rd.Name
			if h.Name == "proxy1" {
				f.Rings = append(f.Rings, b)
			}
			if len(f.Confs) > 0 {
				f.Rings = append(f.Rings, file)
			}
		}
		facts = append(facts, f)
	}
	return tb, facts
}

// clusterServices are the services of host h.
func clusterServices(tb *plan.Testbed, h *plan.Host) []*plan.Service {
	var out []*plan.Service
	for _, s := range tb.Services {
		if h.HasRole(s.Role) {
			out = append(out, s)
		}
	}
	return out
}

// TestBuildLabRoundTrip imports the lab as setup leaves it: the testbed
// validates, renders every conf byte for byte as the hosts hold it, lays
// the rings out device by device as they are, keeps lab.hcl's settings
// and no secret in clear.
func TestBuildLabRoundTrip(t *testing.T) {
	tb, facts := labFacts(t)
	res := Build(facts, Options{SSH: SSH{User: "root", Config: "/var/lib/benchbed-lab/client/ssh_config"}, Ports: map[string]int{"proxy1": 2222, "stor1": 22}})
	text := string(res.Text)
	for _, d := range res.Diags {
		if d.Severity == Error {
			t.Errorf("diagnostic: %s", d)
		}
	}
	if res.Confs == 0 || res.Identical != res.Confs {
		t.Errorf("%d of %d confs byte-identical; diagnostics:\n%v\n%s", res.Identical, res.Confs, res.Diags, text)
	}
	if strings.Contains(text, "lab-bench-key") {
		t.Errorf("the tempauth key is in clear:\n%s", text)
	}
	if res.Vars["tempauth_bench_bench_key"] != "lab-bench-key" {
		t.Errorf("variables %v", res.Vars)
	}
	for _, want := range []string{"host \"stor\" {\n  for_each = {\n    stor1 = \"198.18.0.21\"\n    stor2 = \"198.18.0.22\"\n  }\n  address = each.value", `roles   = ["object", "container", "account"]`, `disks "object"`,
		`ring "container"`, `min_part_hours = 0`, `manager = "direct"`,
		`memcache_max_connections = 10`, `disable_fallocate = true`, `variant "baseline"`, "prefill {\n  workloads = [\"get\"]", `swift_version = "2.30.1"`, "address = \"198.18.0.11\"\n  port    = 2222"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	// What import writes of the lab is kept as the example the docs'
	// experiments include (the README's mycluster.hcl; docs_snippets_test).
	golden.Check(t, "lab-import.hcl", res.Text)
	// The original's first variant and the import's baseline render the
	// same settings on every host.
	imported, diags := decodeText("imported.hcl", res.Text, res.Vars)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	a := labtest.RenderVariant(t, tb, tb.Variants[0].Name)
	b := labtest.RenderVariant(t, imported, baseline)
	if d := render.DiffRenderings(a, b); !d.Empty() {
		var sb strings.Builder
		_ = d.WriteText(&sb, imported.Secrets())
		t.Errorf("diff of lab.hcl's %s and the import's baseline:\n%s", tb.Variants[0].Name, sb.String())
	}
}

// TestBuildSecretsBecomeVariables: a second tempauth user and swift.conf's
// own hash path suffix become sensitive variables, never in clear, and
// the baseline still renders every conf as the hosts have it.
func TestBuildSecretsBecomeVariables(t *testing.T) {
	_, facts := labFacts(t)
	for _, f := range facts {
		if c, ok := f.Confs["/etc/swift/proxy-server.conf"]; ok {
			f.Confs["/etc/swift/proxy-server.conf"] = []byte(strings.Replace(string(c), "[filter:tempauth]\nuse = egg:swift#tempauth\n",
				"[filter:tempauth]\nuse = egg:swift#tempauth\nuser_admin_admin = s3cr3t-admin .admin .reseller_admin\n", 1))
		}
		if c, ok := f.Confs[swiftConfPath]; ok {
			f.Confs[swiftConfPath] = []byte(strings.Replace(string(c), "= benchbed-suffix", "= my-own-suffix", 1))
		}
	}
	res := Build(facts, Options{})
	text := string(res.Text)
	// The proxy's conf gets the new user after the template's: the same
	// settings, another order.
	if res.Diags.HasErrors() || res.Identical != res.Confs-1 {
		t.Errorf("%d of %d confs byte-identical; diagnostics: %v", res.Identical, res.Confs, res.Diags)
	}
	for _, secret := range []string{"s3cr3t-admin", "my-own-suffix", "lab-bench-key"} {
		if strings.Contains(text, secret) {
			t.Errorf("%q in clear:\n%s", secret, text)
		}
	}
	for _, want := range []string{`user_admin_admin = "${var.tempauth_admin_admin_key} .admin .reseller_admin"`, `variable "swift_hash_path_suffix"`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if res.Vars["tempauth_admin_admin_key"] != "s3cr3t-admin" || res.Vars["swift_hash_path_suffix"] != "my-own-suffix" {
		t.Errorf("variables %v", res.Vars)
	}
}
