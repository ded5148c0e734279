package outparse

import (
	"strings"
	"testing"
)

func TestRegexpParser(t *testing.T) {
	// wget's own line read by a custom expression: the last match wins,
	// MiB/s converted to MB/s.
	p, err := Regexp(`\((?P<rate>[0-9.]+) MB/s\) - .* saved \[(?P<bytes>[0-9]+)`, map[string]string{"rate": "MiB/s", "bytes": "B"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Parse(fixture(t, "wget-two-files.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if r := got["rate"]; r.Unit != MBps || !near(r.Value, 681*float64(1<<20)/1e6) {
		t.Errorf("rate = %v, want the last file's 681 MiB/s in MB/s", r)
	}
	if b := got["bytes"]; b.Unit != "B" || b.Value != 67108864 {
		t.Errorf("bytes = %v", b)
	}
	if _, err := p.Parse(fixture(t, "wget-nv.txt")); err == nil || !strings.Contains(err.Error(), "no match for rate, bytes") {
		t.Errorf("unmatched output: error %v", err)
	}
}

func TestRegexpParserRefuses(t *testing.T) {
	for _, tt := range []struct {
		expr  string
		units map[string]string
		want  string
	}{
		{`([0-9]+)`, nil, "no named group"},
		{`(?P<a>[0-9]+)`, map[string]string{}, "a has no unit"},
		{`(?P<a>[0-9]+)`, map[string]string{"a": "s", "b": "s"}, "b, which is no metric"},
		{`(?P<a>[0-9]+`, map[string]string{"a": "s"}, "missing closing )"},
	} {
		if _, err := Regexp(tt.expr, tt.units); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Regexp(%q): error %v, want %q", tt.expr, err, tt.want)
		}
	}
}

func TestJSONPathParser(t *testing.T) {
	p, err := JSONPath(
		map[string]string{"bw": "jobs[*].read.bw_bytes", "first": "jobs[1].read.bw_bytes", "recv": "end.sum_received.bits_per_second"},
		map[string]string{"bw": "B/s", "first": "B/s", "recv": "bit/s"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Parse(fixture(t, "fio-read-2jobs.json"))
	if err == nil || !strings.Contains(err.Error(), `recv (end.sum_received.bits_per_second): no key "end"`) {
		t.Fatalf("fio's report has no end: error %v, %v", err, got)
	}
	p, _ = JSONPath(map[string]string{"bw": "jobs[*].read.bw_bytes", "second": "jobs[1].read.bw_bytes"},
		map[string]string{"bw": "B/s", "second": "B/s"})
	got, err = p.Parse(fixture(t, "fio-read-2jobs.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !near(got["bw"].Value, (633102490+883011368)/1e6) || !near(got["second"].Value, 883011368/1e6) || got["bw"].Unit != MBps {
		t.Errorf("got %v", got)
	}
}

func TestSplitPath(t *testing.T) {
	for p, want := range map[string]string{
		"a.b[0].c[*]": "a b [0] c [*]", "[2][*]": "[2] [*]", "end.sum": "end sum",
		"a..b": "", "a[x]": "", "a[": "", "": "",
	} {
		steps, err := splitPath(p)
		if got := strings.Join(steps, " "); got != want || (err == nil) != (want != "") {
			t.Errorf("splitPath(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
}
