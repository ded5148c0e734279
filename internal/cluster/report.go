package cluster

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// Report is what a step changed and noted, per host, in the testbed's host
// order: what setup.Run returns, and what the sweep's cells and restore log.
type Report struct {
	mu      sync.Mutex
	order   []string
	changes map[string][]string
	notes   map[string][]string
	failed  bool
}

// Fail marks the setup as failed: the report then claims no health.
func (r *Report) Fail() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
}

// NewReport returns an empty report over hosts, in that order.
func NewReport(hosts []string) *Report {
	return &Report{order: hosts, changes: map[string][]string{}, notes: map[string][]string{}}
}

// Change records a change made on host.
func (r *Report) Change(host, format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes[host] = append(r.changes[host], fmt.Sprintf(format, a...))
}

// Note records a fact about host that is no change (e.g. healthy ports).
func (r *Report) Note(host, format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes[host] = append(r.notes[host], fmt.Sprintf(format, a...))
}

// Changed reports whether setup changed anything on any host.
func (r *Report) Changed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.changes {
		if len(c) > 0 {
			return true
		}
	}
	return false
}

// Changes returns the changes recorded for host.
func (r *Report) Changes(host string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.changes[host]...)
}

// Write prints the summary: per host its changes (or "no change") and its
// notes, then one line saying whether anything changed. mask hides secrets.
func (r *Report) Write(w io.Writer, mask func(string) string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	any := false
	for _, h := range r.order {
		c := r.changes[h]
		if len(c) == 0 {
			fmt.Fprintf(&b, "%s: no change", h)
		} else {
			any = true
			fmt.Fprintf(&b, "%s: %d change(s)", h, len(c))
		}
		if n := r.notes[h]; len(n) > 0 {
			fmt.Fprintf(&b, "; %s", strings.Join(n, "; "))
		}
		b.WriteString("\n")
		for _, x := range c {
			fmt.Fprintf(&b, "  %s\n", x)
		}
	}
	if r.failed {
		b.WriteString("setup: failed (the error names the host); the changes above were made\n")
	} else if any {
		b.WriteString("setup: changes applied; the cluster is healthy\n")
	} else {
		b.WriteString("setup: no change; the cluster is healthy\n")
	}
	_, err := io.WriteString(w, mask(b.String()))
	return err
}
