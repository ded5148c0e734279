package templates

import (
	"strings"
	"testing"

	"benchbed/templates/secrets"
)

const sample = `# head comment

[DEFAULT]
# the number of workers
workers = 4
bind_ip: 10.0.0.1

[pipeline:main]
pipeline = healthcheck
    object-server

[app:object-server]
use = egg:swift#object
workers = x
workers = 5
# trailing
`

func TestParseKeepsOrderCommentsAndLines(t *testing.T) {
	f, err := Parse("a.conf", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range f.Sections {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "DEFAULT,pipeline:main,app:object-server" {
		t.Fatalf("sections %s", got)
	}
	e := f.Get("DEFAULT", "workers")
	if e.Value != "4" || e.Source.String() != "a.conf:5 (file)" || e.Comments[0] != "# the number of workers" {
		t.Fatalf("workers entry %+v", e)
	}
	if v, _ := f.Value("DEFAULT", "bind_ip"); v != "10.0.0.1" {
		t.Fatalf("colon form: %q", v)
	}
	if got := f.Pipeline(); strings.Join(got, " ") != "healthcheck object-server" {
		t.Fatalf("continued pipeline %q", got)
	}
	if e := f.Get("app:object-server", "workers"); e.Value != "5" || e.Source.Line != 15 {
		t.Fatalf("repeated key keeps the last value: %+v", e)
	}
	if f.Head[0] != "# head comment" || f.Tail[0] != "# trailing" {
		t.Fatalf("head %q tail %q", f.Head, f.Tail)
	}
}

func TestWriteRoundTrip(t *testing.T) {
	in := "# c\n\n[DEFAULT]\n# w\nworkers = 4\n\n[app:x]\nuse = egg:swift#object\n"
	f, err := Parse("a", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(f.Bytes()); got != in {
		t.Fatalf("round trip:\n%s\nwant:\n%s", got, in)
	}
	f.Set("app:x", "new", Value{Value: "1"})
	f.Set("filter:cache", "use", Value{Value: "egg:swift#memcache"})
	want := in + "new = 1\n\n[filter:cache]\nuse = egg:swift#memcache\n"
	if got := string(f.Bytes()); got != want {
		t.Fatalf("appended:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseErrorsNameFileAndLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"workers = 1\n", "x.conf:1: \"workers = 1\" comes before any [section]"},
		{"[DEFAULT]\njunk\n", "x.conf:2: expected \"key = value\""},
		{"[DEFAULT\n", "x.conf:1: malformed section header"},
		{"[DEFAULT]\n\n  cont\n", "x.conf:3: indented line"},
	} {
		_, err := Parse("x.conf", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestMasking(t *testing.T) {
	f, err := Parse("p", []byte("[filter:tempauth]\nuser_a_b = s3cr3t .admin\ntoken_life = 10\n[DEFAULT]\nnote = has s3cr3t in it\nadmin_key = k\nplain = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	f.Set("DEFAULT", "other", Value{Value: "v", Sensitive: true})
	out := string(f.Masked(secrets.New("s3cr3t")))
	for _, leak := range []string{"s3cr3t", "= k\n", "= v\n"} {
		if strings.Contains(out, leak) {
			t.Errorf("masked output leaks %q:\n%s", leak, out)
		}
	}
	for _, keep := range []string{"token_life = 10", "plain = 1", "note = has " + secrets.Masked + " in it"} {
		if !strings.Contains(out, keep) {
			t.Errorf("masked output lacks %q:\n%s", keep, out)
		}
	}
	if !strings.Contains(string(f.Bytes()), "user_a_b = s3cr3t .admin") {
		t.Error("Bytes (for hosts) must keep secrets")
	}
}

func TestCheckPaste(t *testing.T) {
	f, err := Parse("p", []byte("[pipeline:main]\npipeline = healthcheck swc proxy-server\n[filter:healthcheck]\nuse = egg:swift#healthcheck\n[app:proxy-server]\n"))
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range f.CheckPaste() {
		msgs = append(msgs, w.String())
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, `names "swc" but there is no [filter:swc] section`) || !strings.Contains(got, `[app:proxy-server]: has no "use"`) {
		t.Fatalf("warnings:\n%s", got)
	}
	if strings.Contains(got, "healthcheck\"") {
		t.Fatalf("healthcheck is defined:\n%s", got)
	}
}

func TestKeysIgnoreCaseLikeSwift(t *testing.T) {
	f, err := Parse("a", []byte("[DEFAULT]\nworkers = 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	f.Set("DEFAULT", "Workers", Value{Value: "6"})
	if len(f.Section("DEFAULT").Entries) != 1 || f.Get("DEFAULT", "WORKERS").Value != "6" {
		t.Fatalf("a key differing in case is the same key for Swift:\n%s", f.Bytes())
	}
	if f.Section("default") != nil {
		t.Fatal("section names are exact")
	}
}
