package remote

import (
	"os/exec"
	"testing"
)

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"d0": "d0", "/etc/swift/a.conf": "/etc/swift/a.conf",
		"a b": "'a b'", "it's": `'it'\''s'`, "": "''", "$HOME": "'$HOME'", "a;rm": "'a;rm'"} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestQuoteRoundTrip passes awkward words through a real /bin/sh.
func TestQuoteRoundTrip(t *testing.T) {
	for _, in := range []string{"", "plain", "two words", "it's", `back\slash`, "$(id)", "`id`", "a\nb", "*", "-n"} {
		out, err := exec.Command("/bin/sh", "-c", "printf '%s' "+Quote(in)).Output()
		if err != nil || string(out) != in {
			t.Errorf("sh printed %q, %v for %q", out, err, in)
		}
	}
}
