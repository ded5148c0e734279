package importer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"benchbed/remote"
)

// seqRunner answers a host's reads with its outputs in turn, the last one
// again once they run out.
type seqRunner struct {
	mu   sync.Mutex
	out  map[string][]string
	runs map[string]int
}

func (s *seqRunner) Run(_ context.Context, host, _ string) (*remote.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	outs := s.out[host]
	if len(outs) == 0 {
		return nil, fmt.Errorf("dial %s: connection refused", host)
	}
	i := min(s.runs[host], len(outs)-1)
	s.runs[host]++
	return &remote.Result{Stdout: []byte(outs[i])}, nil
}

func (s *seqRunner) FanOut(ctx context.Context, hosts []string, fn func(ctx context.Context, host string) error) *remote.Outcomes {
	return remote.FanOut(ctx, 4, hosts, fn)
}

// storOutput is probeScript's output on a storage host with account-,
// container- and object-server.conf whose servers run directly with their
// pid files, account-server's only when account is true; two other
// hosts' Swift servers and another host's probe shell run elsewhere.
func storOutput(account bool) string {
	out := "\x1eversion\n2.30.1\n\x1eaddrs\n10.0.0.21\n\x1eswift-init\n"
	for _, s := range []string{"account", "container", "object"} {
		out += "\x1econf /etc/swift/" + s + "-server.conf\n[DEFAULT]\nbind_port = 6202\n\n"
	}
	out += "\x1epidfiles\n300 /var/run/swift/object-server.pid\n400 /var/run/swift/container-server.pid\n"
	if account {
		out += "500 /var/run/swift/account-server.pid\n"
	}
	out += "\x1eprocs\n" +
		"300 1 300 - /usr/bin/python3 /usr/bin/swift-object-server /etc/swift/object-server.conf -v\n" +
		"400 1 400 - /usr/bin/python3 /usr/bin/swift-container-server /etc/swift/container-server.conf -v\n"
	if account {
		out += "500 1 500 - /usr/bin/python3 /usr/bin/swift-account-server /etc/swift/account-server.conf -v\n" +
			"501 500 500 - /usr/bin/python3 /usr/bin/swift-account-server /etc/swift/account-server.conf -v\n"
	}
	return out + "elsewhere 600 /usr/bin/python3 /usr/bin/swift-proxy-server\nelsewhere 700 bash -c\nelsewhere 800\n" +
		"\x1edevices /srv/node\nd0\n\x1emounts\n"
}

// TestProbeReadsAgainAServerBetweenProcesses: a host whose account server
// (its conf there) runs at no process at the first read is read again, and
// the read that finds it is the one described; the wait is said before
// it, the Reread records it, and Build's diagnostics say that it did not
// run at first.
func TestProbeReadsAgainAServerBetweenProcesses(t *testing.T) {
	r := &seqRunner{out: map[string][]string{"stor1": {storOutput(false), storOutput(true)}, "stor2": {storOutput(true)}},
		runs: map[string]int{}}
	var waits []string
	s := Settle{Reads: 4, OnWait: func(host string, missing []string, next, reads int) {
		waits = append(waits, fmt.Sprintf("%s %s %d/%d", host, strings.Join(missing, ","), next, reads))
	}}
	facts, err := ProbeSettle(t.Context(), r, []string{"stor1", "stor2"}, s)
	if err != nil || len(facts) != 2 {
		t.Fatalf("facts %d, err %v", len(facts), err)
	}
	if r.runs["stor1"] != 2 || r.runs["stor2"] != 1 {
		t.Errorf("reads %v, want stor1 twice (until its account server runs), stor2 once", r.runs)
	}
	if !slices.Equal(waits, []string{"stor1 account-server 2/4"}) {
		t.Errorf("waits said %q", waits)
	}
	f := facts[0]
	if rr := f.Reread; rr == nil || !slices.Equal(rr.Missing, []string{"account-server"}) || len(rr.Still) != 0 || rr.Reads != 2 {
		t.Errorf("stor1's reread %+v", f.Reread)
	}
	if len(f.NotRunning()) != 0 || facts[1].Reread != nil {
		t.Errorf("stor1 not running %q (the second read's), stor2's reread %+v", f.NotRunning(), facts[1].Reread)
	}
	if f.Elsewhere != 2 {
		t.Errorf("elsewhere %d, want 2 (the proxy server and an old probe's bare pid, not the shell)", f.Elsewhere)
	}
	d := &draft{}
	d.rereadDiags(facts)
	if len(d.Diags) != 1 || d.Diags[0].Severity != Note || d.Diags[0].Host != "stor1" ||
		!strings.Contains(d.Diags[0].Message, "account-server did not run at the first read") ||
		!strings.Contains(d.Diags[0].Message, "at read 2 of the host") {
		t.Errorf("diagnostics %v", d.Diags)
	}
}

// TestProbeSaysAServerThatNeverRan: a server configured but running at
// none of the reads is read Reads times, then described as the import
// found it, and Build warns that it is configured but not running.
func TestProbeSaysAServerThatNeverRan(t *testing.T) {
	r := &seqRunner{out: map[string][]string{"stor1": {storOutput(false)}}, runs: map[string]int{}}
	facts, err := ProbeSettle(t.Context(), r, []string{"stor1"}, Settle{Reads: 3})
	if err != nil || len(facts) != 1 {
		t.Fatalf("facts %d, err %v", len(facts), err)
	}
	if r.runs["stor1"] != 3 {
		t.Errorf("%d reads, want 3 (the bound)", r.runs["stor1"])
	}
	rr := facts[0].Reread
	if rr == nil || !slices.Equal(rr.Still, []string{"account-server"}) || rr.Reads != 3 {
		t.Fatalf("reread %+v", rr)
	}
	d := &draft{}
	d.rereadDiags(facts)
	if len(d.Diags) != 1 || d.Diags[0].Severity != Warning ||
		!strings.Contains(d.Diags[0].String(), "warning: stor1: account-server configured (its conf is in /etc/swift) but not running: read 3 times over") {
		t.Errorf("diagnostics %v", d.Diags)
	}
}

// TestProbeReadsOnceWithoutSettle: Reads 1 reads every host once, even
// with a server not running, and records no Reread.
func TestProbeReadsOnceWithoutSettle(t *testing.T) {
	r := &seqRunner{out: map[string][]string{"stor1": {storOutput(false), storOutput(true)}}, runs: map[string]int{}}
	facts, err := ProbeSettle(t.Context(), r, []string{"stor1"}, Settle{Reads: 1})
	if err != nil || len(facts) != 1 || facts[0].Reread != nil || r.runs["stor1"] != 1 {
		t.Errorf("facts %+v, err %v, reads %v", facts, err, r.runs)
	}
	if got := facts[0].NotRunning(); !slices.Equal(got, []string{"account-server"}) {
		t.Errorf("not running %q", got)
	}
}

// TestProbeStopsReadingWhenCancelled: a cancelled context ends the waits
// with its error, naming no facts.
func TestProbeStopsReadingWhenCancelled(t *testing.T) {
	r := &seqRunner{out: map[string][]string{"stor1": {storOutput(false)}}, runs: map[string]int{}}
	ctx, cancel := context.WithCancel(t.Context())
	s := Settle{Reads: 5, Wait: DefaultSettle.Wait, OnWait: func(string, []string, int, int) { cancel() }}
	facts, err := ProbeSettle(ctx, r, []string{"stor1"}, s)
	if err == nil || len(facts) != 0 || r.runs["stor1"] != 1 {
		t.Errorf("facts %+v, err %v, reads %v", facts, err, r.runs)
	}
}
