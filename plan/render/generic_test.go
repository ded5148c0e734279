package render

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
)

// genericTestbed has a plain-template nginx and an INI-format daemon;
// variant "off" changes a setting of each.
const genericTestbed = `
testbed "t" {}
host "web1" {
  address = "127.0.0.1"
  roles   = ["web", "client"]
}
service "nginx" {
  kind     = "generic"
  role     = "web"
  path     = "/srv/nginx/nginx.conf"
  command  = "/usr/sbin/nginx -c /srv/nginx/nginx.conf"
  health   = "http://:80/"
  settings = { http = { sendfile = "on" } }
  content  = "http { sendfile {{ .Settings.http.sendfile }}; listen {{ .Host.Address }}:80; }\n"
}
service "ini" {
  kind     = "generic"
  role     = "web"
  format   = "ini"
  path     = "/etc/d.conf"
  command  = "d"
  health   = "true"
  settings = { main = { threads = 4 } }
  content  = "[main]\nname = {{ .Host.Name }}\nthreads = 1\n"
}
variant "on" {}
variant "off" {
  set "nginx" { http = { sendfile = "off" } }
  set "ini" { main = { threads = 8 } }
}
workload "w" {
  command = "true"
  parser  = "curl"
}
`

func TestGeneric(t *testing.T) {
	tb, diags := decode.LoadSource(filepath.Join(t.TempDir(), "tb.hcl"), []byte(genericTestbed), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for v, want := range map[string][2]string{
		"on":  {"http { sendfile on; listen 127.0.0.1:80; }\n", "[main]\nname = web1\nthreads = 4\n"},
		"off": {"http { sendfile off; listen 127.0.0.1:80; }\n", "[main]\nname = web1\nthreads = 8\n"},
	} {
		confs, err := Generic(tb, tb.Variant(v))
		if err != nil {
			t.Fatal(err)
		}
		if len(confs) != 2 || confs[0].Path != "/srv/nginx/nginx.conf" || confs[1].Path != "/etc/d.conf" {
			t.Fatalf("%s: %d confs %v", v, len(confs), confs)
		}
		for i := range want {
			if got := string(confs[i].Content); got != want[i] {
				t.Errorf("%s: %s is %q, want %q", v, confs[i].Path, got, want[i])
			}
		}
	}
	tb.Generics[0].Content = "{{ .Settings.http.nothing }}"
	if _, err := Generic(tb, nil); err == nil || !strings.Contains(err.Error(), "host web1, /srv/nginx/nginx.conf") {
		t.Errorf("a template that fails: %v, want an error naming host and path", err)
	}
}

func TestGenericInRenderingDiffAndWrite(t *testing.T) {
	tb, diags := decode.LoadSource(filepath.Join(t.TempDir(), "tb.hcl"), []byte(genericTestbed), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	on, err := Render(tb, tb.Variant("on"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	off, err := Render(tb, tb.Variant("off"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(on.Generic) != 2 || on.GenericConf("web1", "/etc/d.conf") == nil {
		t.Fatalf("rendering's generic confs: %v", on.Generic)
	}
	var b strings.Builder
	if err := DiffRenderings(on, off).WriteText(&b, tb.Secrets()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"web1: /srv/nginx/nginx.conf\n", "-http { sendfile on;", "+http { sendfile off;", "+threads = 8"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, b.String())
		}
	}
	dir := t.TempDir()
	written, err := off.WriteMasked(dir, tb.Secrets())
	if err != nil || len(written) != 3 || !strings.HasSuffix(written[1], filepath.Join("web1", "etc", "d.conf")) {
		t.Errorf("written %v, %v: want both generic confs and the ring layout", written, err)
	}
}

func TestGenericRunDiff(t *testing.T) {
	tb, diags := decode.LoadSource(filepath.Join(t.TempDir(), "tb.hcl"), []byte(genericTestbed), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	on, off := tb.Variant("on"), tb.Variant("off")
	if got := GenericRunDiff(tb, on, off); len(got) != 0 {
		t.Errorf("same flags and after_start: %q", got)
	}
	off.Runs["nginx"] = &plan.GenericRun{Flags: []string{"-e", "stderr"}, AfterStart: []string{"true"}}
	got := strings.Join(GenericRunDiff(tb, on, off), "\n")
	if got != "nginx: flags [] -> [\"-e\" \"stderr\"]\nnginx: after_start [] -> [\"true\"]" {
		t.Errorf("diff %q", got)
	}
}

// TestGenericSecret: a generic conf holding a secret (a key that names
// one, in any format; a sensitive variable's value) is marked Secret, so it
// is written 0600; one without is not.
func TestGenericSecret(t *testing.T) {
	src := strings.Replace(genericTestbed, `testbed "t" {}`, `testbed "t" {}
variable "pw" {
  default   = "s3cret-Value"
  sensitive = true
}`, 1)
	cases := map[string]struct {
		ini, plain string
		want       [2]bool
	}{
		"none":      {"[main]\nthreads = 1\n", "http { }\n", [2]bool{false, false}},
		"key name":  {"[main]\npassword = hunter2\n", "db_password: hunter2\n", [2]bool{true, true}},
		"sensitive": {"[main]\nx = {{ .Vars.pw }}\n", "auth {{ .Vars.pw }};\n", [2]bool{true, true}},
	}
	for name, c := range cases {
		s := strings.Replace(src, `"http { sendfile {{ .Settings.http.sendfile }}; listen {{ .Host.Address }}:80; }\n"`, strconv.Quote(c.plain), 1)
		s = strings.Replace(s, `"[main]\nname = {{ .Host.Name }}\nthreads = 1\n"`, strconv.Quote(c.ini), 1)
		tb, diags := decode.LoadSource(filepath.Join(t.TempDir(), "tb.hcl"), []byte(s), decode.LoadOptions{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", name, diags.Error())
		}
		confs, err := Generic(tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]bool{confs[0].Secret, confs[1].Secret}; got != [2]bool{c.want[1], c.want[0]} {
			t.Errorf("%s: Secret (plain, ini) = %v, want %v\n%s\n%s", name, got, [2]bool{c.want[1], c.want[0]}, confs[0].Content, confs[1].Content)
		}
	}
}
