package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// newTestPool starts n in-process servers trusted by one client and returns
// a pool over them named h0, h1, ...
func newTestPool(t *testing.T, n int, opts ...Option) (*Pool, []*testServer) {
	t.Helper()
	tc := newTestClient(t)
	var cfgs []Config
	var servers []*testServer
	for i := range n {
		s := newTestServer(t, tc.pub)
		tc.trust(t, s.ln.Addr().String(), s.hostKey.PublicKey())
		cfgs = append(cfgs, tc.config(fmt.Sprintf("h%d", i), s))
		servers = append(servers, s)
	}
	p, err := NewPool(cfgs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, servers
}

func TestRunCapturesOutputAndExitCode(t *testing.T) {
	p, servers := newTestPool(t, 1)
	ctx := context.Background()
	res, err := p.Run(ctx, "h0", "echo hello; echo warn >&2")
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "hello\n" || string(res.Stderr) != "warn\n" || res.Code != 0 || res.Host != "h0" {
		t.Fatalf("result = %+v", res)
	}
	res, err = p.Run(ctx, "h0", "echo one >&2; echo two >&2; exit 3")
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("err = %v, want *ExitError", err)
	}
	if ee.Code != 3 || ee.Host != "h0" || ee.StderrTail != "one\ntwo" || res.Code != 3 {
		t.Fatalf("exit error = %+v (result code %d)", ee, res.Code)
	}
	if !strings.Contains(err.Error(), "exited with status 3") || !strings.Contains(err.Error(), "exit 3") {
		t.Fatalf("message %q should name the command and status", err)
	}
	for range 5 {
		if _, err := p.Run(ctx, "h0", "true"); err != nil {
			t.Fatal(err)
		}
	}
	if acc, sess := servers[0].counts(); acc != 1 || sess != 7 {
		t.Fatalf("connections = %d, sessions = %d; want 1 connection reused for 7 sessions", acc, sess)
	}
}

func TestRunQuotesCommands(t *testing.T) {
	p, _ := newTestPool(t, 1)
	res, err := p.Run(context.Background(), "h0", `printf '%s|' "it's" 'a "b"' $((1+2))`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Stdout); got != `it's|a "b"|3|` {
		t.Fatalf("stdout = %q", got)
	}
}

func TestLiveOutputIsPrefixedWholeLines(t *testing.T) {
	var buf bytes.Buffer
	p, _ := newTestPool(t, 4, Output(&buf, nil))
	cmd := `for i in 1 2 3 4 5; do printf 'part-'; sleep 0.01; printf 'end %s\n' $i; done; printf tail`
	sum := p.FanOut(context.Background(), p.Hosts(), func(ctx context.Context, h string) error {
		_, err := p.Run(ctx, h, cmd)
		return err
	})
	if err := sum.Err(); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^h[0-3]: (part-end [1-5]|tail)$`)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4*6 {
		t.Fatalf("%d lines, want 24:\n%s", len(lines), buf.String())
	}
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Fatalf("line %q is not one whole prefixed line:\n%s", l, buf.String())
		}
	}
}

// TestCancelKillsEverything cancels a command that started children, one
// of them ignoring SIGTERM, and checks that no process of it survives.
func TestCancelKillsEverything(t *testing.T) {
	p, _ := newTestPool(t, 1)
	testCancelKills(t, p, "h0")
}

func testCancelKills(t *testing.T, p *Pool, host string) {
	t.Helper()
	n := 100000 + rand.IntN(800000)
	cmd := fmt.Sprintf(`sleep %d & (trap "" TERM; sleep %d) & sleep %d; echo never`, n, n+1, n+2)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := p.Run(ctx, host, cmd); errc <- err }()
	waitFor(t, "the command's three sleeps to start", func() bool { return len(sleepers(n)) == 3 })
	cancel()
	err := <-errc
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	waitFor(t, "every process of the cancelled command to be gone", func() bool { return len(sleepers(n)) == 0 })
	if _, err := p.Run(context.Background(), host, "true"); err != nil {
		t.Fatalf("connection unusable after a cancel: %v", err)
	}
}

// sleepers lists pids of processes "sleep n", "sleep n+1", "sleep n+2".
func sleepers(n int) []string {
	var pids []string
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		for k := n; k <= n+2; k++ {
			if string(b) == fmt.Sprintf("sleep\x00%d\x00", k) {
				pids = append(pids, d)
			}
		}
	}
	return pids
}

// waitFor polls cond for up to 2 minutes; the limit only stops a broken
// test (a hang guard, never what decides a pass on a loaded machine).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

func TestFanOutSummaryNamesFailedHosts(t *testing.T) {
	p, _ := newTestPool(t, 5, Parallelism(2))
	sum := p.FanOut(context.Background(), p.Hosts(), func(ctx context.Context, h string) error {
		if h == "h4" {
			panic("boom")
		}
		_, err := p.Run(ctx, h, "test "+h+" != h1 && test "+h+" != h3")
		return err
	})
	if got := strings.Join(sum.Failed(), ","); got != "h1,h3,h4" {
		t.Fatalf("failed = %s", got)
	}
	err := sum.Err()
	if err == nil || !strings.Contains(err.Error(), "3 of 5 hosts failed: h1, h3, h4") || !strings.Contains(err.Error(), "panic: boom") {
		t.Fatalf("summary error = %v", err)
	}
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 1 {
		t.Fatalf("summary should wrap the hosts' *ExitError, got %v", err)
	}
	for i, r := range sum.Results {
		if r.Host != fmt.Sprintf("h%d", i) {
			t.Fatalf("results out of order: %+v", sum.Results)
		}
	}
}
