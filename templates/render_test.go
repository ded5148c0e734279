package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testData() Data {
	stor := Host{Name: "stor1", Address: "10.0.0.2", Roles: []string{"object"}}
	proxy := Host{Name: "proxy1", Address: "10.0.0.1", Roles: []string{"proxy"}}
	return Data{
		Host: stor, Service: Service{Name: "object-server", Role: "object", Path: "/etc/swift/object-server.conf", Port: 6200},
		Hosts: []Host{proxy, stor}, Proxies: []Host{proxy},
		Vars: map[string]string{"greeting": "hi"},
		Auth: []User{{Account: "bench1", User: "bench", Key: "k3y"}},
	}
}

func TestBuiltinsRenderAndPassTheirOwnChecks(t *testing.T) {
	if got := strings.Join(Builtins(), " "); got != "account-server container-server object-server proxy-server swift" {
		t.Fatalf("Builtins() = %s", got)
	}
	for _, name := range Builtins() {
		tm, err := Load(name, "")
		if err != nil {
			t.Fatal(err)
		}
		f, warns, err := Render(tm, testData())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(warns) != 0 {
			t.Errorf("%s: unexpected warnings %v", name, warns)
		}
		if name != "swift" && (len(f.Pipeline()) == 0 || f.Get("filter:healthcheck", "use") == nil) {
			t.Errorf("%s: no pipeline with healthcheck", name)
		}
	}
}

func TestBuiltinSourcesAndFacts(t *testing.T) {
	tm, err := Load("object-server.conf", "")
	if err != nil {
		t.Fatal(err)
	}
	f, err := tm.Execute(testData())
	if err != nil {
		t.Fatal(err)
	}
	e := f.Get("DEFAULT", "bind_ip")
	if e.Value != "10.0.0.2" || e.Source.File != "builtin/object-server.conf" || e.Source.Layer != "template" {
		t.Fatalf("bind_ip %+v", e)
	}
	text, _ := builtinText("object-server")
	if want := strings.Split(text, "\n")[e.Source.Line-1]; !strings.HasPrefix(want, "bind_ip = ") {
		t.Fatalf("bind_ip's source line %d is %q", e.Source.Line, want)
	}
	if v, _ := f.Value("DEFAULT", "bind_port"); v != "6200" {
		t.Fatalf("bind_port %s", v)
	}
	proxy, _ := Load("proxy-server", "")
	pf, err := proxy.Execute(testData())
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := pf.Value("filter:cache", "memcache_servers"); v != "10.0.0.1:11211" {
		t.Fatalf("memcache_servers %q", v)
	}
	u := pf.Get("filter:tempauth", "user_bench1_bench")
	if u == nil || u.Value != "k3y .admin" {
		t.Fatalf("tempauth user %+v\n%s", u, pf.Bytes())
	}
	if line := strings.Split(mustText(t, "proxy-server"), "\n")[u.Source.Line-1]; !strings.HasPrefix(line, "user_{{") {
		t.Fatalf("tempauth user's source line %d is %q", u.Source.Line, line)
	}
}

func mustText(t *testing.T, name string) string {
	text, ok := builtinText(name)
	if !ok {
		t.Fatalf("no builtin %s", name)
	}
	return text
}

func TestUserTemplateLinesThroughRangeAndTrim(t *testing.T) {
	text := "[DEFAULT]\n{{range $i, $d := .Host.Roles}}\nrole_{{$i}} = {{$d}}\n{{end}}\n{{- if .Host.Name}}\nname = {{.Host.Name}}\n{{- end}}\nlast = {{.Vars.greeting}}\n"
	tm, err := ParseTemplate("my.tmpl", text)
	if err != nil {
		t.Fatal(err)
	}
	d := testData()
	d.Host.Roles = []string{"a", "b"}
	f, err := tm.Execute(d)
	if err != nil {
		t.Fatal(err)
	}
	for key, line := range map[string]int{"role_0": 3, "role_1": 3, "name": 6, "last": 8} {
		e := f.Get("DEFAULT", key)
		if e == nil || e.Source.Line != line || e.Source.File != "my.tmpl" {
			t.Errorf("%s: %+v, want line %d\n%s", key, e, line, f.Bytes())
		}
	}
	if v, _ := f.Value("DEFAULT", "last"); v != "hi" {
		t.Errorf("last = %q", v)
	}
}

func TestMissingValueFailsNamingTemplateAndLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "obj.conf.tmpl")
	if err := os.WriteFile(path, []byte("[DEFAULT]\nworkers = 2\nbind_ip = {{ .Vars.nope }}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm, err := Load("obj.conf.tmpl", dir)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Render(tm, testData())
	if err == nil || !strings.Contains(err.Error(), "obj.conf.tmpl:3:18:") || !strings.Contains(err.Error(), `no entry for key "nope"`) {
		t.Fatalf("err = %v", err)
	}
	_, err = ParseTemplate("bad.tmpl", "[a]\nx = 1\ny = {{ .Host.Name \n")
	if err == nil || !strings.Contains(err.Error(), "bad.tmpl:3") {
		t.Fatalf("parse err = %v", err)
	}
	if _, err := Load("no-such-template", dir); err == nil || !strings.Contains(err.Error(), "not a built-in template") {
		t.Fatalf("unknown template: %v", err)
	}
	tm, _ = ParseTemplate("field.tmpl", "[a]\n\nx = {{ .Host.Nope }}\n")
	if _, err := tm.Execute(testData()); err == nil || !strings.Contains(err.Error(), "field.tmpl:3:") {
		t.Fatalf("missing field: %v", err)
	}
}

// TestSwiftConfHashFromVariables: the built-in swift.conf takes the hash
// path prefix and suffix from variables of their names (what benchbed
// import writes for a cluster's own), and keeps its placeholders without.
func TestSwiftConfHashFromVariables(t *testing.T) {
	tm, err := Load("swift", "")
	if err != nil {
		t.Fatal(err)
	}
	d := testData()
	f, err := tm.Execute(d)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Value("swift-hash", "swift_hash_path_suffix"); v != "benchbed-suffix" {
		t.Errorf("without variables: suffix %q, want the placeholder", v)
	}
	d.Vars = map[string]string{"swift_hash_path_suffix": "own-suffix", "swift_hash_path_prefix": "own-prefix"}
	if f, err = tm.Execute(d); err != nil {
		t.Fatal(err)
	}
	s, _ := f.Value("swift-hash", "swift_hash_path_suffix")
	p, _ := f.Value("swift-hash", "swift_hash_path_prefix")
	if s != "own-suffix" || p != "own-prefix" {
		t.Errorf("with variables: suffix %q prefix %q", s, p)
	}
}
