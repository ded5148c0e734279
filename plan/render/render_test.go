package render

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/plantest"
	"benchbed/templates"
)

// TestRenderSeedGolden: rendering the seed's lab, variant
// servers_per_port=4, gives confs that hold every section, key and value of
// seed 000's confs (their non-replication, condensed parts).
func TestRenderSeedGolden(t *testing.T) {
	tb := plantest.LoadSeed(t)
	r, err := Render(tb, tb.Variant("servers_per_port=4"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ seed, host, path string }{
		{"object-server.conf", "stor1", "/etc/swift/object-server.conf"},
		{"container-server.conf", "stor1", "/etc/swift/container-server.conf"},
		{"proxy-server.conf", "proxy1", "/etc/swift/proxy-server.conf"},
	} {
		data, err := os.ReadFile(filepath.Join("..", "decode", "testdata", "seed000", c.seed))
		if err != nil {
			t.Fatal(err)
		}
		want, err := templates.Parse(c.seed, data)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Conf(c.host, c.path)
		if got == nil {
			t.Fatalf("no %s on %s", c.path, c.host)
		}
		n := 0
		for _, s := range want.Sections {
			for _, e := range s.Entries {
				n++
				if v, ok := got.File.Value(s.Name, e.Key); !ok || v != e.Value {
					t.Errorf("%s %s [%s] %s = %q (set %v), seed has %q", c.host, c.path, s.Name, e.Key, v, ok, e.Value)
				}
			}
		}
		if n < 10 {
			t.Fatalf("seed extract %s has only %d keys", c.seed, n)
		}
	}
}

// TestRenderEveryTestbedVariantHost renders every shipped testbed in every
// variant for every host.
func TestRenderEveryTestbedVariantHost(t *testing.T) {
	files := plantest.ShippedTestbeds(t)
	if !slices.Contains(files, "../../testbeds/swiftstack-2015.hcl") {
		t.Fatalf("the seed's testbed is not among %v", files)
	}
	t.Logf("testbeds: %v", files)
	for _, file := range files {
		tb, diags := decode.Load(file, decode.LoadOptions{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", file, diags.Error())
		}
		for _, v := range tb.Variants {
			r, err := Render(tb, v, Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", file, v.Name, err)
			}
			checkEveryHost(t, tb, r)
		}
	}
}

// checkEveryHost checks that every host running a service got swift.conf
// and each of its services' confs, server confs bound to the host address.
func checkEveryHost(t *testing.T, tb *plan.Testbed, r *Rendering) {
	t.Helper()
	for _, h := range tb.Hosts {
		for _, s := range tb.Services {
			if !h.HasRole(s.Role) {
				continue
			}
			c := r.Conf(h.Name, s.Path)
			if c == nil || r.Conf(h.Name, SwiftConfPath) == nil {
				t.Errorf("%s %s: %s lacks %s or swift.conf", tb.Name, r.Variant.Name, h.Name, s.Path)
				continue
			}
			if ip, _ := c.File.Value("DEFAULT", "bind_ip"); c.File.IsPaste() && ip != h.Address {
				t.Errorf("%s %s: %s %s bind_ip %q", tb.Name, r.Variant.Name, h.Name, s.Path, ip)
			}
		}
	}
	if len(r.Layout.Rings) != len(tb.Rings) {
		t.Errorf("%s %s: layout of %d rings", tb.Name, r.Variant.Name, len(r.Layout.Rings))
	}
}

func TestRenderSources(t *testing.T) {
	tb := plantest.LoadSeed(t)
	r, err := Render(tb, tb.Variant("servers_per_port=2"), Options{Hosts: []string{"stor2"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Confs) == 0 || r.Conf("stor1", "/etc/swift/object-server.conf") != nil {
		t.Fatalf("--host stor2 renders stor2 only: %d confs", len(r.Confs))
	}
	f := r.Conf("stor2", "/etc/swift/object-server.conf").File
	for key, layer := range map[string]string{"user": "template", "backlog": "settings", "servers_per_port": "set", "bind_ip": "host"} {
		e := f.Get("DEFAULT", key)
		if e == nil || e.Source.Layer != layer {
			t.Errorf("%s: %+v, want layer %s", key, e, layer)
			continue
		}
		if layer != "template" && (!strings.HasSuffix(e.Source.File, "swiftstack-2015.hcl") || e.Source.Line == 0) {
			t.Errorf("%s: source %s", key, e.Source)
		}
	}
	if _, err := Render(tb, nil, Options{Hosts: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), `no host "nope"`) {
		t.Errorf("unknown host: %v", err)
	}
}

// TestRenderWarnings: options the target's Swift ignores and the seed's
// SwiftStack filters are reported, with their HCL source.
func TestRenderWarnings(t *testing.T) {
	tb := plantest.LoadSeed(t)
	r, err := Render(tb, tb.Variant("threads_per_disk=1"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, w := range r.Warnings {
		all = append(all, w.String())
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"stor1: /etc/swift/object-server.conf [app:object-server] threads_per_disk: removed in Swift 2.8.0",
		`proxy1: /etc/swift/proxy-server.conf [pipeline:main] pipeline: names "swc" but there is no [filter:swc] section`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "listens on port") || strings.Contains(text, "no rendered server") {
		t.Errorf("the seed's lab has consistent ports:\n%s", text)
	}
}

// TestRenderSwiftConfEverywhere: a service that writes swift.conf writes it
// on every host, whatever its role, so the hash salts are the same.
func TestRenderSwiftConfEverywhere(t *testing.T) {
	tb := plantest.LoadText(t, "swiftconf.hcl", `
testbed "t" {}
variable "suffix" {
  sensitive = true
  default   = "salty-suffix"
}
host "p" {
  address = "127.0.0.1"
  roles   = ["proxy"]
}
host "s" {
  address = "127.0.0.3"
  roles   = ["object"]
  disks "d" { names = ["d0"] }
}
ring "object" {
  part_power = 4
  disks      = "d"
  port       = 6200
}
service "swift" {
  role     = "proxy"
  template = "swift"
  path     = "/etc/swift/swift.conf"
  settings = { "swift-hash" = { swift_hash_path_suffix = var.suffix } }
}
service "proxy-server" { role = "proxy" }
service "object-server" { role = "object" }
variant "v" {}
`)
	r, err := Render(tb, tb.Variant("v"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"p", "s"} {
		c := r.Conf(h, SwiftConfPath)
		if c == nil {
			t.Fatalf("%s has no swift.conf", h)
		}
		if v, _ := c.File.Value("swift-hash", "swift_hash_path_suffix"); v != "salty-suffix" {
			t.Errorf("%s: suffix %q", h, v)
		}
		if strings.Contains(string(c.File.Masked(tb.Secrets())), "salty") {
			t.Errorf("%s: printed swift.conf leaks the suffix", h)
		}
	}
	for _, w := range r.Warnings {
		if strings.Contains(w.Message, "same swift.conf") {
			t.Errorf("unexpected: %s", w)
		}
	}
}

// TestRenderWarnsServersPerPortWithOnePort: servers_per_port without one
// port per disk isolates nothing, and render says so.
func TestRenderWarnsServersPerPortWithOnePort(t *testing.T) {
	tb := plantest.LoadText(t, "spp.hcl", `
testbed "t" {}
host "s" {
  address = "127.0.0.3"
  roles   = ["object"]
  disks "d" { names = ["d0", "d1"] }
}
ring "object" {
  part_power = 4
  disks      = "d"
  port       = 6200
}
service "object-server" { role = "object" }
variant "spp" {
  set "object-server" { DEFAULT = { servers_per_port = 2 } }
}
variant "isolated" {
  set "object-server" { DEFAULT = { servers_per_port = 2 } }
  ring "object" { port_per_disk = true }
}
`)
	for name, want := range map[string]bool{"spp": true, "isolated": false} {
		r, err := Render(tb, tb.Variant(name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range r.Warnings {
			got = got || strings.Contains(w.String(), "its servers share every disk")
		}
		if got != want {
			t.Errorf("variant %s: warning %v, want %v: %v", name, got, want, r.Warnings)
		}
	}
}
