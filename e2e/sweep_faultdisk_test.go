package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// slowDiskVariant throttles stor1's d0 to 256 KiB/s and 10 write IOPS for
// the object server from 2 s to 4 s of the fault testbed's 6 s run.
const slowDiskVariant = `variant "slow_disk" {
  fault "slow_disk" {
    hosts             = ["stor1"]
    disks             = ["d0"]
    at                = 2
    for               = "2s"
    write_bytes_per_s = 262144
    write_iops        = 10
  }
}

`

// loopDisks puts stor1's four object disks on loop devices (XFS, mounted
// in stor1's own mount namespace, no fstab line: the lab's /etc is this
// machine's) until t ends, and returns the devices.
func loopDisks(t *testing.T, lab *Env) []string {
	t.Helper()
	var devs []string
	for _, d := range []string{"d0", "d1", "d2", "d3"} {
		img := filepath.Join(t.TempDir(), "stor1-"+d+".img")
		must(t, exec.Command("truncate", "-s", "300M", img).Run())
		out, err := exec.Command("losetup", "-f", "--show", img).Output()
		if err != nil {
			t.Skipf("SKIP: no loop device: %v", err)
		}
		dev := strings.TrimSpace(string(out))
		devs = append(devs, dev)
		t.Cleanup(func() { _ = exec.Command("losetup", "-d", dev).Run() })
	}
	var mount strings.Builder
	for i, dev := range devs {
		fmt.Fprintf(&mount, "mkfs.xfs -q -f %s && mkdir -p /srv/node/d%d && mount %s /srv/node/d%d && chown swift: /srv/node/d%d || exit 1\n", dev, i, dev, i, i)
	}
	t.Cleanup(func() { _, _ = lab.SSH(t, "stor1", "for d in d0 d1 d2 d3; do umount /srv/node/$d; done; true") })
	if out, err := lab.SSH(t, "stor1", mount.String()); err != nil {
		t.Fatalf("stor1: the loop disks: %v\n%s", err, out)
	}
	return devs
}

// slowDiskTestbed writes a copy of the fault testbed whose stor1 object
// disks are devs, whose workload PUTs with 16 users (Swift fsyncs every
// object, so the writes reach the device) and with variant slow_disk
// declared after normal (before servers_per_port: a sweep of both runs it
// first). It needs no setup of its own over TestFault's: the servers
// open their objects by path, so they write to the new mounts as they are.
func slowDiskTestbed(t *testing.T, f *fault, devs []string) string {
	t.Helper()
	quoted := make([]string, len(devs))
	for i, d := range devs {
		quoted[i] = `"` + d + `"`
	}
	tb := f.edited(t, "slowdisk.hcl", []labEdit{
		{`(?m)^(\s*users\s*=\s*)\d+`, `${1}16`},
		// stor1 is one element of the lab's host "stor" block: an
		// override at the end names it alone.
		{`\z`, `
override {
  host "stor1" {
    disks "object" {
      names   = local.disks
      devices = [` + strings.Join(quoted, ", ") + `]
    }
  }
}
`},
		{`(?m)^variant "normal" \{\}\n\n`, "${0}" + slowDiskVariant},
	})
	putScenario(t, f.lab, tb)
	return tb
}

// checkSlowDisk checks run's slow_disk cell (TestFault's first cell of
// the sweep that loses stor2): the throttle th seen by watchThrottle held
// the object server with I/O through it; the cell has its three phases
// and no page-cache warning; the during p99 against before's is logged,
// not gated (a timing); afterwards no throttle is left on stor1.
func checkSlowDisk(t *testing.T, lab *Env, run string, th throttleSeen) {
	t.Helper()
	if th.procs == 0 || th.bytes == 0 {
		t.Errorf("stor1: the throttle of d0 never held the object server with I/O through it (%+v)", th)
	}
	rr, err := rundir.ReadRun(run)
	must(t, err)
	if len(rr.Summary.Cells) == 0 || rr.Summary.Cells[0].Variant != "slow_disk" {
		t.Fatalf("%s: no slow_disk cell first: %+v", run, rr.Summary.Cells)
	}
	c := rr.Summary.Cells[0]
	if c.Status != results.StatusOK || c.Fault == nil {
		t.Fatalf("cell %s: status %s (%s), no phases", c.ID, c.Status, c.Error)
	}
	b, d := c.Fault.Phase(results.PhaseBefore), c.Fault.Phase(results.PhaseDuring)
	if b == nil || d == nil || c.Fault.Phase(results.PhaseAfter) == nil {
		t.Fatalf("cell %s: phases %+v, want before, during and after", c.ID, c.Fault.Phases)
	}
	if c.Telemetry != nil && c.Telemetry.PageCache != nil && c.Telemetry.PageCache.Warning != "" {
		t.Errorf("cell %s: page-cache warning: %s", c.ID, c.Telemetry.PageCache.Warning)
	}
	t.Logf("slow d0 (%d processes in the throttle, %d bytes through it): PUT last-byte p99 before %.1f ms, during %.1f ms (x%.2f); req/s %.1f -> %.1f; %s",
		th.procs, th.bytes, b.Total.LastByte.P99*1000, d.Total.LastByte.P99*1000, d.Total.LastByte.P99/b.Total.LastByte.P99,
		b.Total.ReqPerS, d.Total.ReqPerS, c.Fault.Recovery.Text())
	if got, err := lab.SSH(t, "stor1", "ls -d /sys/fs/cgroup/blkio/benchbed-* /sys/fs/cgroup/benchbed-* 2>/dev/null | grep -v /benchbed-distro; ls -A /var/tmp/benchbed/faults 2>/dev/null; ls -A /var/tmp/benchbed-faults 2>/dev/null; true"); err != nil || strings.TrimSpace(got) != "" {
		t.Errorf("stor1: a throttle is left (%v):\n%s", err, got)
	}
}

// putScenario points tb's workload at a copy of 64K_put_faults.scenario
// (PUTs, which Swift fsyncs: the throttle reaches the disk) with 100
// initial objects.
func putScenario(t *testing.T, lab *Env, tb string) {
	t.Helper()
	src := filepath.Join(filepath.Dir(lab.Testbed), "64K_put_faults.scenario")
	writeScenario(t, src, filepath.Join(filepath.Dir(tb), "64K_put_faults.scenario"), 100, 6)
	b, err := os.ReadFile(tb)
	must(t, err)
	s := regexp.MustCompile(`scenario\s*=\s*"[^"]+"`).ReplaceAllString(string(b), `scenario = "64K_put_faults.scenario"`)
	must(t, os.WriteFile(tb, []byte(s), 0o644))
}

// throttleSeen is the most a watch saw of stor1's slow_disk cgroup: the
// processes it held and the bytes of I/O to the throttled device.
type throttleSeen struct{ procs, bytes int64 }

// watchThrottle polls stor1 every half second until stop closes, reading
// every benchbed blkio (v1) or io (v2) cgroup's processes and its bytes
// to dev.
func watchThrottle(t *testing.T, lab *Env, dev string, stop chan struct{}) throttleSeen {
	var seen throttleSeen
	script := `mm=$(printf '%d:%d' 0x$(stat -Lc %t ` + dev + `) 0x$(stat -Lc %T ` + dev + `))
for cg in /sys/fs/cgroup/blkio/benchbed-* /sys/fs/cgroup/benchbed-*; do
  [ -d "$cg" ] || continue
  echo "procs $(wc -l < "$cg/cgroup.procs")"
  [ ! -f "$cg/blkio.throttle.io_service_bytes" ] || awk -v mm="$mm" '$1 == mm && $2 == "Total" {print "bytes", $3}' "$cg/blkio.throttle.io_service_bytes"
  [ ! -f "$cg/io.stat" ] || awk -v mm="$mm" '$1 == mm {for (i = 2; i <= NF; i++) {split($i, kv, "="); if (kv[1] == "rbytes" || kv[1] == "wbytes") n += kv[2]}; print "bytes", n}' "$cg/io.stat"
done`
	for {
		select {
		case <-stop:
			return seen
		case <-time.After(500 * time.Millisecond):
		}
		out, _ := lab.SSH(t, "stor1", script)
		for _, l := range strings.Split(out, "\n") {
			var n int64
			if _, err := fmt.Sscanf(l, "procs %d", &n); err == nil && n > seen.procs {
				seen.procs = n
			}
			if _, err := fmt.Sscanf(l, "bytes %d", &n); err == nil && n > seen.bytes {
				seen.bytes = n
			}
		}
	}
}
