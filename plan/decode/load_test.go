package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
	"benchbed/plan/scenario"
	"benchbed/templates/secrets"
)

// minimal is a small valid testbed; tests append blocks to it.
var minimal = fixture("minimal.hcl")

// write puts files (name -> text) in a new directory and returns its path.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// mustLoad loads text (plus extra files) and fails on any error.
func mustLoad(t *testing.T, text string, opts LoadOptions, extra map[string]string) *plan.Testbed {
	t.Helper()
	files := map[string]string{"tb.hcl": text}
	for k, v := range extra {
		files[k] = v
	}
	dir := write(t, files)
	tb, diags := Load(filepath.Join(dir, "tb.hcl"), opts)
	if diags.HasErrors() {
		t.Fatalf("Load: %s", diags.Error())
	}
	return tb
}

func TestVariablePrecedence(t *testing.T) {
	text := minimal + `
variable "workers" {
  type    = number
  default = 1
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { workers = var.workers } }
}
variant "v" {}
`
	workers := func(tb *plan.Testbed) string { return tb.Services[0].Settings["DEFAULT"]["workers"].Value }
	env := []string{"BENCHBED_VAR_workers=2", "OTHER=1"}
	dir := write(t, map[string]string{"a.hcl": "workers = 3\n", "b.json": `{"workers": 4}`})
	cases := []struct {
		name string
		opts LoadOptions
		want string
	}{
		{"default", LoadOptions{}, "1"},
		{"environment", LoadOptions{Environ: env}, "2"},
		{"var-file over environment", LoadOptions{Environ: env, VarFiles: []string{filepath.Join(dir, "a.hcl")}}, "3"},
		{"later var-file wins", LoadOptions{VarFiles: []string{filepath.Join(dir, "a.hcl"), filepath.Join(dir, "b.json")}}, "4"},
		{"-var over all", LoadOptions{Environ: env, VarFiles: []string{filepath.Join(dir, "a.hcl")}, Vars: map[string]string{"workers": "5"}}, "5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := workers(mustLoad(t, text, c.opts, nil)); got != c.want {
				t.Errorf("workers = %q, want %q", got, c.want)
			}
		})
	}
}

func TestSensitiveSettings(t *testing.T) {
	text := minimal + `
variable "secret" { sensitive = true }
service "object-server" {
  role     = "object"
  settings = {
    DEFAULT = { plain = "x", derived = "pre-${var.secret}" }
    other   = merge({ a = 1 }, { b = var.secret })
  }
  unchecked = ["DEFAULT", "other"] # placeholders of the language's test, no Swift options
}
variant "v" {}
`
	tb := mustLoad(t, text, LoadOptions{Vars: map[string]string{"secret": "hunter2"}}, nil)
	s := tb.Services[0].Settings
	if s["DEFAULT"]["plain"].Sensitive || !s["DEFAULT"]["derived"].Sensitive || !s["other"]["b"].Sensitive {
		t.Errorf("sensitive flags wrong: %+v", s)
	}
	if s["DEFAULT"]["derived"].Value != "pre-hunter2" {
		t.Errorf("derived = %q", s["DEFAULT"]["derived"].Value)
	}
	if got := tb.Mask("is pre-hunter2 and k"); got != "is "+secrets.Masked+" and k" {
		t.Errorf("Mask = %q", got)
	}
}

func TestSettingValuesAndRanges(t *testing.T) {
	text := minimal + `
service "object-server" {
  role = "object"
  settings = {
    DEFAULT = {
      a = true
      b = 10.0
      c = 0.5
      d = "10.0"
      e = 1000000
    }
  }
  unchecked = ["DEFAULT"] # placeholders of the language's test, no Swift options
}
variant "v" {}
`
	tb := mustLoad(t, text, LoadOptions{}, nil)
	sec := tb.Services[0].Settings["DEFAULT"]
	got := map[string]string{}
	for k, v := range sec {
		got[k] = v.Value
	}
	want := map[string]string{"a": "true", "b": "10", "c": "0.5", "d": "10.0", "e": "1000000"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	// minimal has 21 lines (the first empty); settings start at line 4 of the appended text.
	base := strings.Count(minimal, "\n")
	if l := sec["a"].Range.Start.Line; l != base+6 {
		t.Errorf("a's line = %d, want %d", l, base+6)
	}
	if l := sec["e"].Range.Start.Line; l != base+10 {
		t.Errorf("e's line = %d, want %d", l, base+10)
	}
}

func TestLocalsFunctionsAndForEach(t *testing.T) {
	text := minimal + `
locals {
  b = "${local.a}-b"
  a = upper(trimspace(file("name.txt")))
  n = { x = 1, y = 2 }
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { name = local.b, count = length(concat(range(3), [1])) } }
  unchecked = ["DEFAULT"] # placeholders of the language's test, no Swift options
}
variant "m" {
  for_each = local.n
  name     = format("%s-%d", each.key, each.value)
  set "object-server" { DEFAULT = { workers = each.value } }
}
variant "l" { for_each = ["p", "q"] }
`
	tb := mustLoad(t, text, LoadOptions{}, map[string]string{"name.txt": " abc\n"})
	def := tb.Services[0].Settings["DEFAULT"]
	if def["name"].Value != "ABC-b" || def["count"].Value != "4" {
		t.Errorf("settings = %+v", def)
	}
	var names []string
	for _, v := range tb.Variants {
		names = append(names, v.Name)
	}
	if diff := cmp.Diff([]string{"x-1", "y-2", "l=p", "l=q"}, names); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	if tb.Variants[1].Set["object-server"]["DEFAULT"]["workers"].Value != "2" {
		t.Errorf("y-2 sets %+v", tb.Variants[1].Set)
	}
}

func TestInlineScenarioAndDefaults(t *testing.T) {
	tb := mustLoad(t, minimal+"service \"o\" { role = \"object\" }\nvariant \"v\" {}\n", LoadOptions{}, nil)
	w := tb.Workloads[0]
	sc, err := scenario.Parse(w.ScenarioJSON)
	if err != nil || sc.Name != "w" {
		t.Fatalf("inline scenario %s: %v %+v", w.ScenarioJSON, err, sc)
	}
	if diff := cmp.Diff([]string{"h1"}, w.Clients); diff != "" {
		t.Errorf("default clients (-want +got):\n%s", diff)
	}
	s := tb.Services[0]
	if s.Manager != plan.DefaultManager || s.Template != "o" || s.Path != "/etc/swift/o.conf" {
		t.Errorf("service defaults = %+v", s)
	}
	if tb.SSH.Parallelism != 32 || tb.SSH.ConnectTimeout.Seconds() != 10 || tb.Sweep.Repeat != 1 ||
		tb.Sweep.OnFailure != "continue" || !tb.Sweep.Restore || tb.Sweep.RunsDir != "runs" || w.AgentsPerClient != 1 {
		t.Errorf("defaults: ssh %+v sweep %+v", tb.SSH, tb.Sweep)
	}
	r := tb.Rings[0]
	if r.Role != "object" || r.Port != 6200 || r.PortBase != 6201 || r.Replicas != 3 {
		t.Errorf("ring defaults = %+v", r)
	}
	if len(tb.Sensitive) != 1 || tb.Sensitive[0] != "k" {
		t.Errorf("auth key not recorded as sensitive: %q", tb.Sensitive)
	}
}

func TestExpand(t *testing.T) {
	tb := &plan.Testbed{
		Variants:  []*plan.Variant{{Name: "normal"}, {Name: "servers_per_port=2"}},
		Workloads: []*plan.Workload{{Name: "64K get"}, {Name: "w2"}},
		Sweep:     plan.Sweep{Repeat: 2},
	}
	cells := plan.Expand(tb)
	var ids []string
	for _, c := range cells {
		ids = append(ids, c.ID)
	}
	want := []string{
		"001-normal-64K_get-r1", "002-normal-64K_get-r2", "003-normal-w2-r1", "004-normal-w2-r2",
		"005-servers_per_port_2-64K_get-r1", "006-servers_per_port_2-64K_get-r2",
		"007-servers_per_port_2-w2-r1", "008-servers_per_port_2-w2-r2",
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ids, idsOf(plan.Expand(tb))); diff != "" {
		t.Errorf("Expand is not stable:\n%s", diff)
	}
}

// TestExpandInterleaved: with sweep.interleave the first repeat of every
// variant and workload runs before any second one, each round starting one
// variant further, so that none always runs first in its round.
func TestExpandInterleaved(t *testing.T) {
	tb := &plan.Testbed{
		Variants:  []*plan.Variant{{Name: "normal"}, {Name: "spp=2"}, {Name: "spp=4"}},
		Workloads: []*plan.Workload{{Name: "get"}},
		Sweep:     plan.Sweep{Repeat: 4, Interleave: true},
	}
	want := []string{"001-normal-get-r1", "002-spp_2-get-r1", "003-spp_4-get-r1",
		"004-spp_2-get-r2", "005-spp_4-get-r2", "006-normal-get-r2",
		"007-spp_4-get-r3", "008-normal-get-r3", "009-spp_2-get-r3",
		"010-normal-get-r4", "011-spp_2-get-r4", "012-spp_4-get-r4"}
	if diff := cmp.Diff(want, idsOf(plan.Expand(tb))); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

func idsOf(cells []plan.Cell) []string {
	var ids []string
	for _, c := range cells {
		ids = append(ids, c.ID)
	}
	return ids
}

func TestWriteDiagnostics(t *testing.T) {
	rng := hcl.Range{Filename: "x.hcl", Start: hcl.Pos{Line: 3, Column: 5}}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagWarning, Summary: "later", Subject: &hcl.Range{Filename: "x.hcl", Start: hcl.Pos{Line: 9, Column: 1}}},
		{Severity: hcl.DiagError, Summary: "first", Detail: "why\nand more", Subject: &rng},
	}
	var b strings.Builder
	if err := lang.WriteDiagnostics(&b, nil, diags); err != nil {
		t.Fatal(err)
	}
	want := "x.hcl:3,5: first\n    why\n    and more\nx.hcl:9,1: warning: later\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestVariableFlagsParsing(t *testing.T) {
	text := minimal + `
variable "names" { type = list(string) }
variable "cfg" {
  type    = object({ w = number })
  default = { w = 1 }
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { names = join(",", var.names), w = var.cfg.w } }
  unchecked = ["DEFAULT"] # placeholders of the language's test, no Swift options
}
variant "v" {}
`
	tb := mustLoad(t, text, LoadOptions{Vars: map[string]string{"names": `["a", "b"]`, "cfg": "{ w = 7 }"}}, nil)
	def := tb.Services[0].Settings["DEFAULT"]
	if def["names"].Value != "a,b" || def["w"].Value != "7" {
		t.Errorf("settings = %+v", def)
	}
	if v := tb.Variables["names"]; v.Value != `["a","b"]` || v.Type != "list(string)" || !v.Set {
		t.Errorf("variable names = %+v", v)
	}
	dir := write(t, map[string]string{"tb.hcl": text, "bad.hcl": "\nnames = [\"x\"]\nnope = 1\n"})
	_, diags := Load(filepath.Join(dir, "tb.hcl"), LoadOptions{VarFiles: []string{filepath.Join(dir, "bad.hcl")}})
	if len(diags) != 1 || diags[0].Summary != "Undeclared variable" || diags[0].Subject.Start.Line != 3 {
		t.Errorf("undeclared in var file: %v", diags)
	}
	_, diags = Load(filepath.Join(dir, "tb.hcl"), LoadOptions{Vars: map[string]string{"names": "[unclosed"}})
	if len(diags) != 1 || diags[0].Summary != "Invalid value for variable" {
		t.Errorf("bad -var: %v", diags)
	}
}

// TestAcceptNewHostKeysIsAnOption: only the loader's option (the CLI's
// flag) makes the testbed accept new host keys.
func TestAcceptNewHostKeysIsAnOption(t *testing.T) {
	for _, want := range []bool{false, true} {
		tb := mustLoad(t, minimal+"service \"object-server\" { role = \"object\" }\nvariant \"v\" {}\n", LoadOptions{AcceptNewHostKeys: want}, nil)
		if tb.SSH.AcceptNewHostKeys != want {
			t.Errorf("AcceptNewHostKeys = %v, want %v", tb.SSH.AcceptNewHostKeys, want)
		}
	}
}
