package remote

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestExitErrorIsOneLine: a failed script reads as one line (host, the
// script's first line and length, status, stderr's last line); Detail
// keeps the whole script and output; ExitErrors finds it in a tree.
func TestExitErrorIsOneLine(t *testing.T) {
	p, _ := newTestPool(t, 1)
	script := "set -e\necho out-line\necho early-noise >&2\nfor f in a b c; do :; done\n: > /nonexistent-dir/x.conf\n"
	_, err := p.Run(context.Background(), "h0", script)
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("want an ExitError, got %v", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, `h0: "set -e" (a 5-line script) exited with status 2: `) ||
		!strings.Contains(msg, "/nonexistent-dir/x.conf") || strings.Contains(msg, "early-noise") {
		t.Fatalf("not one line with host, script, status and cause: %q", msg)
	}
	d := ee.Detail()
	for _, want := range []string{script, "out-line", "early-noise"} {
		if !strings.Contains(d, want) {
			t.Errorf("Detail lacks %q:\n%s", want, d)
		}
	}
	joined := errors.Join(errors.New("other"), fmt.Errorf("h0: backup: %w", err))
	if got := ExitErrors(joined); len(got) != 1 || got[0] != ee {
		t.Errorf("ExitErrors %v", got)
	}
	if got := CommandSummary("systemctl restart nginx"); got != `"systemctl restart nginx"` {
		t.Errorf("a one-line command: %s", got)
	}
}
