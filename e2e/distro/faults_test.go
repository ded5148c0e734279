package distro

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// faultMarks is what watchFaults looks for on the hosts while the fault
// cells run: one line per fault kind that took effect there.
var faultMarks = map[string]string{
	"stor1": `grep -qs . /sys/fs/cgroup/blkio/system.slice/swift-object.service/blkio.throttle.write_bps_device && echo slow_disk
mountpoint -q /srv/node/d0 || echo fail_disk
mountpoint -q /srv/node/d0 || python3 -c "import http.client as h; c = h.HTTPConnection('198.18.1.21', 6200, timeout=2); c.request('HEAD', '/d0/0/a/c/o'); print('http', c.getresponse().status)" 2>/dev/null`,
	"stor2": `systemctl is-active -q swift-object || echo stop
nft list tables 2>/dev/null | grep -q benchbed_ && echo partition`,
	"proxy1": `tc qdisc show | grep -q tbf && echo slow_link`,
}

// ringMark is stor1's object ring check: it prints the ring's checksum and,
// when that differs from last, "rebalance" if stor1's d0 has weight 0 in
// the ring (the rebalance fault's ring; the servers_per_port=4 cell's port
// switch changes the ring too, so a changed checksum alone proves nothing).
// Both read one copy of the ring: Python takes seconds to start under
// load, and the undo may push the original back meanwhile.
func ringMark(last string) string {
	return `t=$(mktemp); cp /etc/swift/object.ring.gz "$t"; s=$(md5sum < "$t"); echo "ring $s"
[ "$s" = "` + last + `" ] || python3 -c "from swift.common.ring import RingData
r = RingData.load('$t')
print(*['rebalance' for d in r.devs if d and d['ip'] == '198.18.1.21' and d['device'] == 'd0' and d['weight'] == 0])"
rm -f "$t"`
}

// watchFaults polls the hosts every half second until stop closes and
// returns every mark seen (faultMarks, and stor1's ringMark).
func watchFaults(lab *Env, stop chan struct{}) map[string]bool {
	seen := map[string]bool{}
	ring := "" // stor1's object ring's checksum at the last poll
	var mu sync.Mutex
	for {
		select {
		case <-stop:
			return seen
		case <-time.After(500 * time.Millisecond):
		}
		var wg sync.WaitGroup
		for h, script := range faultMarks {
			if h == "stor1" {
				script += "\n" + ringMark(ring)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, _ := lab.SSH(h, script)
				mu.Lock()
				defer mu.Unlock()
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					if r, ok := strings.CutPrefix(l, "ring "); ok {
						ring = r
					} else if l != "" {
						seen[l] = true
					}
				}
			}()
		}
		wg.Wait()
	}
}

// faultsCopy is testbeds/distro/faults-distro.hcl in dir, its runs kept
// short: 16 s runs with every fault from 3 s to 8 s (the rebalance from
// 1 s to 13 s: its during phase starts once its apply, ring pushed, has
// ended, 6.6 to 7.3 s after it started at load average 9 to 11), a 1 s
// warm-up. Each phase lasts what its check needs: the fault seen in effect
// on its host (polled every half second), and after the undo the 5 s
// window in which a recovery is seen. Its PUTs overwrite the prefilled
// objects (an update profile) instead of creating new ones: the same
// fsynced writes, and no objects to delete after each run (the load
// deletes what a run created once it ends: 15 to 22 s after each 20 s run
// of new objects at load average 7).
func faultsCopy(t *testing.T, lab *Env, dir string) string {
	t.Helper()
	tb := testbedCopy(t, lab, dir, "faults-distro.hcl")
	editFile(t, tb, [][2]string{
		{`(?m)^(\s*duration\s*=\s*)"\d+s"`, `${1}"16s"`},
		{`(?m)^(\s*warmup\s*=\s*)"5s"`, `${1}"1s"`},
		{`(?m)^(\s*at\s*=\s*)\d+$`, `${1}3`},
		{`(?m)^(\s*for\s*=\s*)\d+$`, `${1}5`},
		{`(?s)(fault "rebalance" \{.*?at\s*=\s*)3(\s*\n\s*for\s*=\s*)5`, `${1}1${2}12`},
	})
	editFile(t, filepath.Join(dir, "64K_put_faults.scenario"), [][2]string{{`"crud_profile":\s*\[1, 0, 0, 0\]`, `"crud_profile": [0, 0, 1, 0]`}})
	return tb
}

// testFaultCells sweeps faults-distro.hcl's cells of every kind but pause
// (the netns lab's TestFaultCells runs that one), short and with PUTs that
// overwrite (faultsCopy): normal and
// servers_per_port=4 under one slow disk, a failed disk, a stopped object
// server, a partitioned storage host, a slow proxy link and a rebalance.
// Every cell has its three phases, a degradation and a recovery (or "not
// recovered"); on the hosts each fault was seen in effect while the sweep
// ran (the unit's throttle, the unmounted disk, the stopped unit, the nft
// table, the tbf qdisc, d0 at weight 0 in the object ring pushed to
// stor1), and stor1's object server answered 507 for the failed disk;
// afterwards every unit is active, the rings and confs are as before and
// no fault is left. The degradation figures are logged, not gated
// (timings).
func testFaultCells(t *testing.T, lab *Env, _ string) {
	began := time.Now()
	tb := faultsCopy(t, lab, t.TempDir())
	if out, errOut, err := lab.Benchbed("setup", "-q", tb); err != nil {
		t.Fatalf("benchbed setup: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	before := snapshot(t, lab)
	cells := []string{"normal+slow_disk", "servers_per_port=4+slow_disk", "fail_disk", "stopped", "partitioned", "slow_link", "rebalance"}
	args := []string{"sweep", tb}
	for _, c := range cells {
		args = append(args, "--only", c)
	}
	stop := make(chan struct{})
	seenc := make(chan map[string]bool, 1)
	go func() { seenc <- watchFaults(lab, stop) }()
	out, errOut, err := lab.Benchbed(args...)
	close(stop)
	seen := <-seenc
	if err != nil {
		t.Fatalf("benchbed sweep: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	t.Logf("sweep table:\n%s", tableLines(out))
	// The proxy sends a PUT for the failed disk to a handoff, so the
	// client sees no error; stor1's object server answers 507 for it.
	for _, k := range []string{"slow_disk", "fail_disk", "http 507", "stop", "partition", "slow_link", "rebalance"} {
		if !seen[k] {
			t.Errorf("%s was never seen in effect on its host (seen: %v)", k, keys(seen))
		}
	}
	runs, _ := filepath.Glob(filepath.Join(filepath.Dir(tb), "runs", "*", "*"))
	if len(runs) != 1 {
		t.Fatalf("runs %v, want one", runs)
	}
	rr, err := rundir.ReadRun(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rr.Summary.Cells {
		if c.Fault == nil {
			t.Errorf("cell %s (%s): no phases", c.ID, c.Status)
			continue
		}
		b, d, a := c.Fault.Phase(results.PhaseBefore), c.Fault.Phase(results.PhaseDuring), c.Fault.Phase(results.PhaseAfter)
		if b == nil || d == nil || a == nil {
			t.Errorf("cell %s: phases %+v, want before, during and after", c.ID, c.Fault.Phases)
			continue
		}
		t.Logf("%s: p99 before %.0f ms, during %.0f ms, after %.0f ms; req/s %.1f, %.1f, %.1f; errors during %v; %s",
			c.ID, b.Total.LastByte.P99*1000, d.Total.LastByte.P99*1000, a.Total.LastByte.P99*1000,
			b.Total.ReqPerS, d.Total.ReqPerS, a.Total.ReqPerS, d.Total.ErrorsBy, c.Fault.Recovery.Text())
		if c.Telemetry != nil && c.Telemetry.PageCache != nil && c.Telemetry.PageCache.Warning != "" {
			t.Errorf("cell %s: page-cache warning: %s", c.ID, c.Telemetry.PageCache.Warning)
		}
	}
	if after := snapshot(t, lab); after != before {
		t.Errorf("confs and rings differ after the sweep:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	checkActive(t, lab)
	for h, script := range faultMarks {
		if h == "stor1" {
			script += "\n" + ringMark("")
		}
		out, _ := lab.SSH(h, script+"\nls -A /var/tmp/benchbed/faults /var/tmp/benchbed-faults 2>/dev/null | grep -v ':$' | grep .")
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if l != "" && !strings.HasPrefix(l, "ring ") {
				t.Errorf("%s: left after the sweep: %s", h, l)
			}
		}
	}
	t.Logf("fault cells: %d cells in %.0f s", len(rr.Summary.Cells), time.Since(began).Seconds())
}

// tableLines are the lines of out that belong to its tables.
func tableLines(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "|") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func keys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
