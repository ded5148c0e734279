package secrets

import (
	"strings"
	"testing"
)

// lines feeds in to one Lines a line at a time.
func lines(m *Lines, in ...string) []string {
	var out []string
	for _, l := range in {
		out = append(out, m.Line(l))
	}
	return out
}

func TestLinesSectionOfAnEarlierLine(t *testing.T) {
	got := lines(New().Lines(),
		"[swift-hash]", "swift_hash_path_suffix = 0123abcd", "swift_hash_path_prefix=feed",
		"[filter:tempauth]", "use = egg:swift#tempauth", "user_bench_bench = k1 .admin",
		"[DEFAULT]", "user_bench_bench = not-a-key", "workers = 2", "password:", "db_password: pw")
	want := []string{
		"[swift-hash]", "swift_hash_path_suffix = " + Masked, "swift_hash_path_prefix=" + Masked,
		"[filter:tempauth]", "use = egg:swift#tempauth", "user_bench_bench = " + Masked,
		"[DEFAULT]", "user_bench_bench = not-a-key", "workers = 2", "password:", "db_password: " + Masked}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Lines:\n got %q\nwant %q", got, want)
	}
}

func TestLinesKeysInsideALine(t *testing.T) {
	for in, want := range map[string]string{
		"/etc/swift/swift.conf:swift_hash_path_suffix = 0123abcd": "/etc/swift/swift.conf:swift_hash_path_suffix = " + Masked,
		"-swift_hash_path_prefix = 0123abcd":                      "-swift_hash_path_prefix = " + Masked,
		`{"auth_key": "k2", "n": 1}`:                              `{"auth_key": ` + Masked,
		"< X-Auth-Token: abc123":                                  "< X-Auth-Token: " + Masked,
		"wrote /etc/swift/proxy-server.conf":                      "wrote /etc/swift/proxy-server.conf",
		"token_life = 86400":                                      "token_life = 86400",
		"url http://198.18.0.11:8080/auth/v1.0":                   "url http://198.18.0.11:8080/auth/v1.0",
	} {
		if got := New().Lines().Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLinesStreamsKeepTheirOwnSection(t *testing.T) {
	set := New()
	a, b := set.Lines(), set.Lines() // two hosts' stdout, their lines interleaved
	got := []string{a.Line("[filter:tempauth]"), b.Line("[DEFAULT]"), a.Line("user_x_y = k .admin"),
		b.Line("user_x_y = plain"), b.Line("[swift-hash]"), a.Line("[app:proxy-server]"), a.Line("swift_hash_path_suffix = s")}
	want := []string{"[filter:tempauth]", "[DEFAULT]", "user_x_y = " + Masked, "user_x_y = plain", "[swift-hash]",
		"[app:proxy-server]", "swift_hash_path_suffix = " + Masked}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("interleaved:\n got %q\nwant %q", got, want)
	}
}

func TestLinesValuesAndTokens(t *testing.T) {
	m := New("lab-bench-key", "first line\nsecond-line").Lines()
	for in, want := range map[string]string{
		"auth ok with lab-bench-key for bench:bench": "auth ok with " + Masked + " for bench:bench",
		"X-Storage-Token AUTH_tk4f3a9b0c":            "X-Storage-Token " + Masked,
		"token gAAAAABk_x-Y= issued":                 "token " + Masked + " issued",
		"the secret's second-line alone":             "the secret's " + Masked + " alone",
		"[lab-bench-key]":                            "[" + Masked + "]",
	} {
		if got := m.Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
	var none *Set
	if got := none.Lines().Line("AUTH_tk0a1b"); got != Masked {
		t.Errorf("nil Set's Lines: %q", got)
	}
}
