package decode

import (
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/outparse"
)

// seed004 is a testbed of command workloads and a generic service; tests
// add blocks to it.
const seed004 = `
testbed "t" {}
host "web1" {
  address = "127.0.0.1"
  roles   = ["web"]
}
host "c1" {
  address = "127.0.0.2"
  roles   = ["client"]
}
service "nginx" {
  kind     = "generic"
  role     = "web"
  path     = "/srv/nginx/nginx.conf"
  command  = "/usr/sbin/nginx -c /srv/nginx/nginx.conf"
  flags    = ["-g", "daemon off;"]
  health   = "http://:80/"
  settings = { http = { sendfile = "on" } }
  content  = <<EOT
http { sendfile {{ .Settings.http.sendfile }}; listen {{ .Host.Address }}:80; }
EOT
}
variant "sendfile-on" {}
variant "sendfile-off" {
  set "nginx" { http = { sendfile = "off" } }
  service "nginx" {
    flags       = ["-e", "stderr"]
    after_start = ["true"]
  }
}
`

// loadDiags loads text and returns its diagnostics' text ("" when none).
func loadDiags(t *testing.T, text string) (*plan.Testbed, string) {
	t.Helper()
	dir := write(t, map[string]string{"tb.hcl": text})
	tb, diags := Load(filepath.Join(dir, "tb.hcl"), LoadOptions{})
	var all []string
	for _, d := range diags {
		all = append(all, d.Summary+": "+d.Detail)
	}
	return tb, strings.Join(all, "\n")
}

func TestCommandWorkload(t *testing.T) {
	tb := mustLoad(t, seed004+`
workload "wget" {
  command   = "wget -O /dev/null http://127.0.0.1/big"
  parser    = "wget"
  users     = 2
  before    = ["sync; echo 3 > /proc/sys/vm/drop_caches"]
  before_on = ["web1"]
}
workload "custom" {
  command = "echo took 2.5 s"
  parser  = "regexp"
  pattern = "took (?P<secs>[0-9.]+) s"
  units   = { secs = "s" }
  metric  = "secs"
}
`, LoadOptions{}, nil)
	w := tb.Workload("wget")
	if !w.IsCommand() || w.Users != 2 || w.Command.Parser == nil || w.Command.Metric != outparse.Throughput ||
		strings.Join(w.Command.BeforeOn, ",") != "web1" || strings.Join(w.Clients, ",") != "c1" {
		t.Fatalf("wget = %+v, command %+v", w, w.Command)
	}
	figs, err := tb.Workload("custom").Command.Parser.Parse(outparse.Output{Stdout: []byte("took 2.5 s\n")})
	if err != nil || figs["secs"].Value != 2.5 {
		t.Errorf("custom parser: %v, %v", figs, err)
	}
}

func TestCommandWorkloadErrors(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`command = "x"`, "Missing parser"},
		{`command = "x"
		  parser = "ab"`, `unknown parser "ab"`},
		{`command = "x"
		  parser = "wget"
		  units = { a = "s" }`, "units goes with parser"},
		{`command = "x"
		  parser = "regexp"
		  pattern = "(?P<a>[0-9]+)"
		  units = { a = "s" }`, `metric "throughput" (the figure its table shows) is none of the parser's (a)`},
		{`command = "x"
		  parser = "curl"
		  rate = 3`, "rate belongs to scenario workloads"},
		{`command = "x"
		  parser = "curl"
		  before_on = ["nohost"]`, `"nohost" is no host of this testbed (web1, c1)`},
		{`users = 1`, "needs a scenario (a Swift load) or a command"},
	} {
		_, diags := loadDiags(t, seed004+"workload \"w\" {\n"+tt.body+"\n}\n")
		if !strings.Contains(diags, tt.want) {
			t.Errorf("%s: diagnostics %q, want %q", tt.body, diags, tt.want)
		}
	}
}

func TestGenericService(t *testing.T) {
	tb := mustLoad(t, seed004+`workload "w" {
  command = "x"
  parser  = "curl"
}`, LoadOptions{}, nil)
	g := tb.Generic("nginx")
	if g == nil || len(tb.Services) != 0 || g.Manager != plan.ManagerDirect || g.Format != plan.FormatPlain {
		t.Fatalf("generic %+v, swift services %d", g, len(tb.Services))
	}
	off := tb.Variant("sendfile-off")
	if got := strings.Join(g.FlagsIn(off), " "); got != "-g daemon off; -e stderr" {
		t.Errorf("flags in sendfile-off: %q", got)
	}
	if got := g.AfterStartIn(tb.Variant("sendfile-on")); len(got) != 0 {
		t.Errorf("after_start in sendfile-on: %q", got)
	}
}

func TestGenericServiceErrors(t *testing.T) {
	for _, tt := range []struct{ from, to, want string }{
		{`  command  = "/usr/sbin/nginx -c /srv/nginx/nginx.conf"` + "\n", "", "manager = \"direct\" needs command"},
		{`  health   = "http://:80/"`, `  health = "tcp://nohost"`, "a check with :// is tcp://ADDR:PORT"},
		{`  health   = "http://:80/"`, ``, "Missing health"},
		{`  kind     = "generic"`, `  kind = "generic"
  manager = "systemd"`, "flags are added to command"},
		{`  path     = "/srv/nginx/nginx.conf"`, `  path = "/srv/nginx/nginx.conf"
  template = "x.tmpl"`, "needs template (a file) or content"},
		{`  service "nginx" {`, `  service "other" {`, `variant "sendfile-off" has service "other"`},
	} {
		text := strings.Replace(seed004, tt.from, tt.to, 1) + "workload \"w\" {\n command = \"x\"\n parser = \"curl\"\n}\n"
		_, diags := loadDiags(t, text)
		if !strings.Contains(diags, tt.want) {
			t.Errorf("%q -> %q: diagnostics %q, want %q", tt.from, tt.to, diags, tt.want)
		}
	}
}
