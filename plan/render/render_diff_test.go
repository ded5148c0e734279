package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/plantest"
	"benchbed/templates/secrets"
)

func renderOrFatal(t *testing.T, tb *plan.Testbed, variant string) *Rendering {
	t.Helper()
	v := tb.Variant(variant)
	if v == nil {
		t.Fatalf("no variant %s", variant)
	}
	r, err := Render(tb, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDiffSeedVariants: normal -> servers_per_port=2 changes workers and
// servers_per_port on both storage hosts (one group) and the object ring's
// ports, nothing else.
func TestDiffSeedVariants(t *testing.T) {
	tb := plantest.LoadSeed(t)
	d := DiffRenderings(renderOrFatal(t, tb, "normal"), renderOrFatal(t, tb, "servers_per_port=2"))
	if len(d.Files) != 1 || strings.Join(d.Files[0].Hosts, ",") != "stor1,stor2" || d.Files[0].Path != "/etc/swift/object-server.conf" {
		t.Fatalf("files: %+v", d.Files)
	}
	var b strings.Builder
	if err := d.WriteText(&b, tb.Secrets()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"stor1, stor2: /etc/swift/object-server.conf\n  [DEFAULT]\n",
		"    workers: 29 (../../testbeds/swiftstack-2015.hcl:",
		") -> 6 (../../testbeds/swiftstack-2015.hcl:",
		"    servers_per_port: 0 (",
		") -> 2 (",
		"ring object: one port per host (6200) -> one port per disk from 6210\n",
		"  stor1: d0..d31 6200 -> 6210..6241\n",
		"  stor2: d0..d28 6200 -> 6210..6238\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	same := DiffRenderings(renderOrFatal(t, tb, "normal"), renderOrFatal(t, tb, "normal"))
	if !same.Empty() {
		t.Fatalf("normal vs normal: %+v", same)
	}
}

// TestDiffMasksSecrets: a changed sensitive value shows as masked in the
// text and unified diffs, while the files written for hosts hold it.
func TestDiffMasksSecrets(t *testing.T) {
	tb := plantest.LoadText(t, "secret.hcl", `
testbed "secret" {}
variable "key" {
  sensitive = true
  default   = "s3cr3t-old"
}
variable "key2" {
  sensitive = true
  default   = "s3cr3t-new"
}
host "p" {
  address = "127.0.0.1"
  roles   = ["proxy"]
}
service "proxy-server" {
  role     = "proxy"
  settings = { "filter:tempauth" = { user_a_b = "${var.key} .admin" }, "DEFAULT" = { note = var.key } }
  unchecked = ["note"] # no option of Swift's: a secret in a plain key
}
variant "a" {}
variant "b" {
  set "proxy-server" {
    settings = { "filter:tempauth" = { user_a_b = "${var.key2} .admin" }, "DEFAULT" = { note = var.key2 } }
  }
}
`)
	a, b := renderOrFatal(t, tb, "a"), renderOrFatal(t, tb, "b")
	m := tb.Secrets()
	var text, unified strings.Builder
	if err := DiffRenderings(a, b).WriteText(&text, m); err != nil {
		t.Fatal(err)
	}
	if err := WriteUnified(&unified, a, b, m); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "unified": unified.String()} {
		if strings.Contains(out, "s3cr3t") || !strings.Contains(out, "proxy-server.conf") {
			t.Errorf("%s diff leaks or masks nothing:\n%s", name, out)
		}
	}
	if !strings.Contains(text.String(), "note: "+secrets.Masked) {
		t.Errorf("the changed sensitive key is still listed:\n%s", text.String())
	}
	dir := t.TempDir()
	if _, err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "p", "etc", "swift", "proxy-server.conf"))
	if err != nil || !strings.Contains(string(data), "user_a_b = s3cr3t-new .admin") {
		t.Fatalf("the host's file must hold the key: %v\n%s", err, data)
	}
	if st, _ := os.Stat(filepath.Join(dir, "p", "etc", "swift", "proxy-server.conf")); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	if _, err := os.Stat(filepath.Join(dir, LayoutFile)); err != nil {
		t.Error(err)
	}
	runDir := t.TempDir()
	if _, err := b.WriteMasked(runDir, m); err != nil {
		t.Fatal(err)
	}
	data, err = os.ReadFile(filepath.Join(runDir, "p", "etc", "swift", "proxy-server.conf"))
	if err != nil || strings.Contains(string(data), "s3cr3t") || !strings.Contains(string(data), "user_a_b = "+secrets.Masked) {
		t.Fatalf("a run directory's copy must be masked: %v\n%s", err, data)
	}
}

// TestRenderUserTemplateMissingValue: a service's own template with a
// missing value fails Render, naming the template file and line.
func TestRenderUserTemplateMissingValue(t *testing.T) {
	dir := t.TempDir()
	tmpl := "[DEFAULT]\nbind_ip = {{ .Host.Address }}\nbind_port = {{ .Vars.port }}\n"
	if err := os.WriteFile(filepath.Join(dir, "my.conf.tmpl"), []byte(tmpl), 0o644); err != nil {
		t.Fatal(err)
	}
	hcl := `
testbed "t" {}
host "h" {
  address = "127.0.0.1"
  roles   = ["web"]
}
service "web" {
  role     = "web"
  template = "my.conf.tmpl"
  path     = "/etc/web.conf"
}
variant "v" {}
`
	path := filepath.Join(dir, "t.hcl")
	if err := os.WriteFile(path, []byte(hcl+plantest.Fixture(t, "minimal-workload.hcl")), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.Load(path, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	_, err := Render(tb, tb.Variant("v"), Options{})
	if err == nil || !strings.Contains(err.Error(), "my.conf.tmpl:3:") || !strings.Contains(err.Error(), `"port"`) || !strings.Contains(err.Error(), "host h") {
		t.Fatalf("err = %v", err)
	}
}

// TestDiffShowsSwiftsDefault: where one variant leaves a key unset, the
// diff shows the value Swift then runs with, from the testbed's catalog.
func TestDiffShowsSwiftsDefault(t *testing.T) {
	tb := plantest.LoadText(t, "defaults.hcl", `
testbed "defaults" { swift_version = "2.30.1" }
host "s" {
  address = "127.0.0.1"
  roles   = ["object"]
  disks "d" { names = ["d0"] }
}
ring "object" {
  part_power = 4
  replicas   = 1
  disks      = "d"
}
service "object-server" { role = "object" }
variant "a" {}
variant "b" {
  set "object-server" {
    settings = { DEFAULT = { max_clients = 512 }, "object-replicator" = { rsync_timeout = 600 } }
  }
}
`)
	a, b := renderOrFatal(t, tb, "a"), renderOrFatal(t, tb, "b")
	var text strings.Builder
	if err := DiffRenderings(a, b).WriteText(&text, tb.Secrets()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"max_clients: 1024 (unset: Swift's default) -> 512", "rsync_timeout: 900 (unset: Swift's default) -> 600"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, text.String())
		}
	}
}
