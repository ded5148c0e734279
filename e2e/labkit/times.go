package labkit

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TimesEnv names the file (set by scripts/e2e.sh) to which each test
// binary appends its tests' times: go test prints nothing of a passing
// binary without -v, the script prints the file after it.
const TimesEnv = "BENCHBED_E2E_TIMES"

// Times records how long each top-level test of a binary took, from its
// first use of the lab to its end, and writes them all when the binary
// ends: each test logs its own time too (shown with -v).
type Times struct {
	mu      sync.Mutex
	started map[string]bool
	rows    []timeRow
	notes   []string
}

type timeRow struct {
	name   string
	d      time.Duration
	result string
}

// Track starts t's clock unless it runs already (a subtest counts in its
// top-level test); t's end logs and records its time.
func (c *Times) Track(t testing.TB) {
	name, _, _ := strings.Cut(t.Name(), "/")
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started[name] {
		return
	}
	if c.started == nil {
		c.started = map[string]bool{}
	}
	c.started[name] = true
	begin := time.Now()
	t.Cleanup(func() {
		d := time.Since(begin)
		res := "ok"
		switch {
		case t.Failed():
			res = "FAIL"
		case t.Skipped():
			res = "skip"
		}
		t.Logf("%s: %.1f s (%s)", name, d.Seconds(), res)
		c.mu.Lock()
		c.rows = append(c.rows, timeRow{name, d, res})
		c.mu.Unlock()
	})
}

// Note adds a line to the summary (a step of the binary outside any test,
// such as taking the lab down at its end).
func (c *Times) Note(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// Write writes the summary headed by title to w, and appends it to the
// file TimesEnv names, if any.
func (c *Times) Write(w io.Writer, title string, total time.Duration) {
	c.mu.Lock()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %.1f s in all\n", title, total.Seconds())
	for _, r := range c.rows {
		fmt.Fprintf(&b, "  %-32s %7.1f s  %s\n", r.name, r.d.Seconds(), r.result)
	}
	for _, n := range c.notes {
		fmt.Fprintf(&b, "  %s\n", n)
	}
	c.mu.Unlock()
	fmt.Fprint(w, b.String())
	if p := os.Getenv(TimesEnv); p != "" {
		if f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprint(f, b.String())
			f.Close()
		}
	}
}
