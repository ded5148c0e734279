package proxylog_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/plan/proxylog"
	"benchbed/plan/proxylog/proxylogtest"
)

// line is a default-template line as Swift 2.30.1 writes it.
const line = "10.0.0.1 10.0.0.1 05/Dec/2026/01/02/03 PUT /v1/AUTH_acct/photos/a%20b.jpg HTTP/1.0 201 - " +
	"python-swiftclient AUTH_tk0123456789ab... 1024 - - tx1-abc - 0.0123 - - 1796432523.100000000 1796432523.112300000 0"

func defaultTemplate(t *testing.T) *proxylog.Template {
	t.Helper()
	tp, err := proxylog.Compile(proxylog.DefaultTemplate)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

func TestParseDefaultLine(t *testing.T) {
	var r proxylog.Record
	if err := defaultTemplate(t).Parse(line, &r); err != nil {
		t.Fatal(err)
	}
	want := proxylog.Record{Start: time.Unix(1796432523, 100000000).UTC(), Method: "PUT", Kind: proxylog.KindObject,
		Account: "AUTH_acct", Container: "photos", Object: "a b.jpg", Status: 201, BytesRecvd: 1024,
		RequestTime: 12300 * time.Microsecond}
	if r != want {
		t.Errorf("got %+v\nwant %+v", r, want)
	}
}

func TestKinds(t *testing.T) {
	tp := defaultTemplate(t)
	cases := map[string]struct {
		kind proxylog.Kind
		s3   bool
	}{
		"/auth/v1.0": {proxylog.KindAuth, false}, "/v1.0": {proxylog.KindAuth, false}, "/v3/auth/tokens": {proxylog.KindAuth, false},
		"/v1/AUTH_a": {proxylog.KindAccount, false}, "/v1/AUTH_a/": {proxylog.KindAccount, false},
		"/v1/AUTH_a/c?format=json": {proxylog.KindContainer, false}, "/v1/AUTH_a/c/o/p": {proxylog.KindObject, false},
		"/info": {proxylog.KindOther, false}, "/bucket": {proxylog.KindContainer, true},
		"/bucket/key/x?uploadId=1": {proxylog.KindObject, true}, "/": {proxylog.KindAccount, true},
	}
	for path, want := range cases {
		var r proxylog.Record
		l := strings.Replace(line, "/v1/AUTH_acct/photos/a%20b.jpg", path, 1)
		if err := tp.Parse(l, &r); err != nil || r.Kind != want.kind || r.S3 != want.s3 {
			t.Errorf("%s: kind %v s3 %v err %v, want %v %v", path, r.Kind, r.S3, err, want.kind, want.s3)
		}
	}
	var r proxylog.Record
	sub := strings.Replace(line, " 0.0123 - ", " 0.0123 SLO ", 1)
	if err := tp.Parse(sub, &r); err != nil || r.Client() || r.Source != "SLO" {
		t.Errorf("subrequest: %+v %v", r, err)
	}
}

func TestStatedTemplate(t *testing.T) {
	tp, err := proxylog.Compile("{end_time.datetime} {method} {account} {container} {object} {status_int} {bytes_sent} {request_time} {ttfb} | {source}")
	if err != nil {
		t.Fatal(err)
	}
	var r proxylog.Record
	if err := tp.Parse("05/Dec/2026/01/02/03 GET AUTH_a c o%2F1 200 77 1.5000 0.2500 | -", &r); err != nil {
		t.Fatal(err)
	}
	if r.Kind != proxylog.KindObject || r.Object != "o/1" || r.BytesSent != 77 || r.TTFB != 250*time.Millisecond ||
		!r.Start.Equal(time.Date(2026, 12, 5, 1, 2, 1, 500000000, time.UTC)) {
		t.Errorf("%+v", r)
	}
	for tmpl, want := range map[string]string{
		"{method}{path} {end_time}":   "nothing between",
		"{method} {path} {bogus}":     "unknown field {bogus}",
		"{path} {end_time}":           "no {method}",
		"{method} {path} {client_ip}": "has no time",
		"{method} {path} {end_time":   "without its '}'",
	} {
		if _, err := proxylog.Compile(tmpl); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", tmpl, err, want)
		}
	}
}

// spec is a small synthetic log.
func spec(name string, start time.Time) proxylogtest.Spec {
	return proxylogtest.Spec{Name: name, Lines: 1000, Start: start, Rates: []float64{100},
		Mix: map[string]float64{"GET": 6, "PUT": 3, "DELETE": 1}, SizeMin: 1000, SizeMax: 100000,
		Objects: 50, Zipf: 1, Containers: 3, GarbleEvery: 100, AuthEvery: 50, Syslog: true, Seed: 1}
}

func TestGarbledCountedAndScrubbed(t *testing.T) {
	s := spec("a.log", time.Unix(1796432523, 0))
	r, err := proxylog.NewReader(defaultTemplate(t), proxylog.Input{Name: "a.log", R: s.Reader()})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ok := r.Next(); ok; _, ok = r.Next() {
		n++
	}
	st := r.Stats()
	if st.Garbled != 10 || st.Records != 990 || int64(n) != st.Records || st.Lines != 1000 {
		t.Errorf("stats %+v, %d records", st, n)
	}
	if !strings.HasPrefix(st.FirstGarbled, "a.log:100: ") || strings.Contains(st.FirstGarbled, "AUTH_") || strings.Contains(st.FirstGarbled, "5ecre7") {
		t.Errorf("first garbled %q: want it at a.log:100, secrets masked", st.FirstGarbled)
	}
}

func TestGzipAndMergeByTime(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Unix(1796432523, 0)
	a := filepath.Join(dir, "proxy1.log.gz")
	writeGzip(t, a, spec("a", t0).Reader())
	b := filepath.Join(dir, "proxy2.log")
	s := spec("b", t0.Add(5*time.Millisecond))
	s.Syslog = false
	data, _ := io.ReadAll(s.Reader())
	if err := os.WriteFile(b, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := proxylog.Open(defaultTemplate(t), a, b)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var last time.Time
	n := 0
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		if rec.Start.Before(last) {
			t.Fatalf("record %d at %v before %v", n, rec.Start, last)
		}
		last = rec.Start
		n++
	}
	if n != 1980 || r.Err() != nil || r.Stats().Garbled != 20 {
		t.Errorf("%d records, %+v, %v", n, r.Stats(), r.Err())
	}
}

func writeGzip(t *testing.T, path string, src io.Reader) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := io.Copy(zw, src); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLongLineAndBadGzip(t *testing.T) {
	long := strings.Repeat("x", proxylog.MaxLine+10) + "\n" + line + "\n"
	r, err := proxylog.NewReader(defaultTemplate(t), proxylog.Input{Name: "l", R: strings.NewReader(long)})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ok := r.Next(); ok; _, ok = r.Next() {
		n++
	}
	if n != 1 || r.Stats().Garbled != 1 {
		t.Errorf("%d records, %+v", n, r.Stats())
	}
	if _, err := proxylog.NewReader(defaultTemplate(t), proxylog.Input{Name: "bad.gz", R: strings.NewReader("\x1f\x8bxx")}); err == nil || !strings.Contains(err.Error(), "bad.gz") {
		t.Errorf("bad gzip: %v", err)
	}
}

// TestSyslogPrefixes: the traditional and rsyslog's ISO prefixes are
// dropped; a file may switch between them and bare lines.
func TestSyslogPrefixes(t *testing.T) {
	in := strings.Join([]string{
		"Dec  5 01:02:03 proxy1 proxy-server: " + line,
		"2026-12-05T01:02:03.123456+00:00 proxy1 proxy-server: " + line,
		line,
		"Dec  5 01:02:03 proxy1 proxy-server: " + line,
		"Dec  5 01:02:03 proxy1 proxy-server: STDERR: something else",
	}, "\n")
	r, err := proxylog.NewReader(defaultTemplate(t), proxylog.Input{Name: "s", R: strings.NewReader(in)})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		if rec.Object != "a b.jpg" || rec.Status != 201 {
			t.Errorf("%+v", rec)
		}
		n++
	}
	if n != 4 || r.Stats().Garbled != 1 || !strings.HasPrefix(r.Stats().FirstGarbled, "s:5: ") {
		t.Errorf("%d records, %+v", n, r.Stats())
	}
}
