package templates

import (
	"strconv"
	"strings"
	"testing"

	"benchbed/templates/secrets"
)

func TestOverlayOrderAndSources(t *testing.T) {
	f, err := Parse("builtin/x.conf", []byte("[DEFAULT]\nworkers = auto\nbind_ip = 0.0.0.0\nuser = swift\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Sections {
		for _, e := range s.Entries {
			e.Source.Layer = "template"
		}
	}
	settings := Layer{Name: "settings"}
	settings.Add("DEFAULT", "workers", Value{Value: "29", Source: Source{File: "t.hcl", Line: 40}})
	settings.Add("DEFAULT", "bind_ip", Value{Value: "1.2.3.4", Source: Source{File: "t.hcl", Line: 41}})
	settings.Add("app:object-server", "slow", Value{Value: "0", Source: Source{File: "t.hcl", Line: 42}})
	settings.Add("DEFAULT", "zeta", Value{Value: "z", Source: Source{File: "t.hcl", Line: 43}})
	settings.Add("DEFAULT", "alpha", Value{Value: "a", Source: Source{File: "t.hcl", Line: 44}})
	set := Layer{Name: "set"}
	set.Add("DEFAULT", "workers", Value{Value: "6", Source: Source{File: "t.hcl", Line: 80}})
	host := Layer{Name: "host", Enforced: true}
	host.Add("DEFAULT", "bind_ip", Value{Value: "10.0.0.2", Source: Source{File: "t.hcl", Line: 5}})
	host.Add("DEFAULT", "user", Value{Value: "root"})
	warns := f.Apply(settings, set, host)

	for _, c := range []struct{ key, val, src string }{
		{"workers", "6", "t.hcl:80 (set)"},
		{"bind_ip", "10.0.0.2", "t.hcl:5 (host)"},
		{"user", "root", "host"},
	} {
		e := f.Get("DEFAULT", c.key)
		if e.Value != c.val || e.Source.String() != c.src {
			t.Errorf("%s = %q from %q, want %q from %q", c.key, e.Value, e.Source, c.val, c.src)
		}
	}
	var keys []string
	for _, e := range f.Section("DEFAULT").Entries {
		keys = append(keys, e.Key)
	}
	if got := strings.Join(keys, " "); got != "workers bind_ip user alpha zeta" {
		t.Errorf("key order %s", got)
	}
	if f.Get("app:object-server", "slow") == nil {
		t.Error("a section the template lacks is added")
	}
	if len(warns) != 1 || warns[0].Key != "bind_ip" || !strings.Contains(warns[0].String(), "t.hcl:41 (settings)") {
		t.Errorf("only the replaced setting warns, naming it: %v", warns)
	}
}

func TestCheckRemoved(t *testing.T) {
	f, err := Parse("o.conf", []byte("[DEFAULT]\nthreads_per_disk = 1\n[app:proxy-server]\nput_queue_depth = 10\n[object-replicator]\nrun_pause = 60\n[app:x]\nworkers = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range CheckRemoved(f, "") {
		got = append(got, w.String())
	}
	all := strings.Join(got, "\n")
	if len(got) != 3 || !strings.Contains(all, "threads_per_disk: removed in Swift 2.8.0") ||
		!strings.Contains(all, "o.conf:2 (file)") || !strings.Contains(all, "run_pause: deprecated since Swift 2.4.0; instead: interval") {
		t.Fatalf("warnings:\n%s", all)
	}
	if ws := CheckRemoved(f, "2.7.0"); len(ws) != 2 || !strings.Contains(ws[0].Message, "deprecated") {
		t.Fatalf("Swift 2.7.0 still reads threads_per_disk (deprecated only): %v", ws)
	}
	if !versionLess("2.9.0", "2.10.0") || versionLess("2.30.1", "2.8.0") {
		t.Fatal("versionLess compares numerically")
	}
}

func TestDiffAndFormat(t *testing.T) {
	a, _ := Parse("a", []byte("[DEFAULT]\nworkers = 29\nsame = 1\ngone = x\n[filter:tempauth]\nuser_a_b = old .admin\n"))
	b, _ := Parse("b", []byte("[DEFAULT]\nworkers = 6\nsame = 1\nservers_per_port = 2\n[filter:tempauth]\nuser_a_b = new .admin\n"))
	var got []string
	for _, c := range Diff(a, b) {
		got = append(got, "["+c.Section+"] "+c.Format(nil))
	}
	want := []string{
		"[DEFAULT] workers: 29 (a:2 (file)) -> 6 (b:2 (file))",
		"[DEFAULT] servers_per_port: (unset) -> 2 (b:4 (file))",
		"[filter:tempauth] user_a_b: " + secrets.Masked + " (a:6 (file)) -> " + secrets.Masked + " (b:6 (file))",
		"[DEFAULT] gone: x (a:4 (file)) -> (unset)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(Diff(a, a)) != 0 {
		t.Fatal("a file does not differ from itself")
	}
}

func TestUnified(t *testing.T) {
	// the expected text is GNU diff -u's output for the same input
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
	want := "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@ -12,3 +12,4 @@\n 12\n 13\n 14\n+15\n"
	if got := Unified("a", "b", a, b); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if Unified("a", "b", a, a) != "" {
		t.Fatal("equal texts give no diff")
	}
	if got := Unified("a", "b", "", "x\n"); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Fatalf("from empty: %q", got)
	}
}

func TestOverlayDropsTheTemplatesAlias(t *testing.T) {
	tm, err := Load("proxy-server", "")
	if err != nil {
		t.Fatal(err)
	}
	l := Layer{Name: "settings"}
	l.Add("filter:cache", "memcache_max_connections", Value{Value: "10"})
	f, _, err := Render(tm, testData(), l)
	if err != nil {
		t.Fatal(err)
	}
	if f.Get("filter:cache", "max_connections") != nil {
		t.Fatalf("the template's max_connections would not be the value Swift uses:\n%s", f.Bytes())
	}
	if v, _ := f.Value("filter:cache", "memcache_max_connections"); v != "10" {
		t.Fatalf("memcache_max_connections = %q", v)
	}
}

func TestDiffAgainstAHostsFile(t *testing.T) {
	tm, err := Load("object-server", "")
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := tm.Execute(testData())
	if err != nil {
		t.Fatal(err)
	}
	found := strings.Replace(string(rendered.Bytes()), "workers = auto", "workers = 29", 1)
	onHost, err := Parse("stor1:/etc/swift/object-server.conf", []byte(found))
	if err != nil {
		t.Fatal(err)
	}
	changes := Diff(onHost, rendered)
	if len(changes) != 1 || changes[0].Format(nil) != "workers: 29 (stor1:/etc/swift/object-server.conf:"+
		itoa(changes[0].Old.Source.Line)+" (file)) -> auto (builtin/object-server.conf:"+itoa(changes[0].New.Source.Line)+" (template))" {
		t.Fatalf("changes: %+v", changes)
	}
	if changes[0].Old.Source.Line != changes[0].New.Source.Line {
		t.Errorf("the host's file and the template have workers on the same line: %d vs %d", changes[0].Old.Source.Line, changes[0].New.Source.Line)
	}
	if _, err := Parse("x", []byte("junk\n")); err == nil {
		t.Error("a broken file on the host is an error")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
