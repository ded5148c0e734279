package faults

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"benchbed/plan"
)

// startDirect starts a process group as the sweep starts a direct daemon
// (setsid, its pid in pidFile) and returns the script that does it, which
// returns once the new pid is in the file (not after 0.3 s, which a loaded
// machine's fork can outlast; its 2 minutes only bound a hang).
func startDirect(t *testing.T, pidFile string) string {
	t.Helper()
	start := fmt.Sprintf("rm -f %[1]s\nsetsid sh -c 'echo $$ > %[1]s; exec sleep 300' </dev/null >/dev/null 2>&1 &\n"+
		"i=0; while [ ! -s %[1]s ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done\n", pidFile)
	must(t, "", "start", start)
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				_ = syscall.Kill(-pid, syscall.SIGCONT)
				_ = syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
	})
	return start
}

// pidOf reads the pid file.
func pidOf(t *testing.T, pidFile string) int {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	pid, err2 := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || err2 != nil {
		t.Fatalf("pid file %s: %v %v", pidFile, err, err2)
	}
	return pid
}

// procState is the state letter of pid ("S", "T", ...).
func procState(t *testing.T, pid int) string {
	out, _ := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return strings.TrimSpace(string(out))
}

// undoAtEnd runs s.Undo when the test ends, whatever happened.
func undoAtEnd(t *testing.T, s Scripts) { t.Cleanup(func() { _, _ = sh(t, "", s.Undo) }) }

func TestPauseWithSignalsAndTheFreezer(t *testing.T) {
	needRoot(t, "pgrep")
	for _, how := range []string{plan.HowSignal, plan.HowFreezer} {
		t.Run(how, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "object-server.pid")
			startDirect(t, pidFile)
			pid := pidOf(t, pidFile)
			s, err := Build(Target{ID: "f2-stor1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultPause, How: how},
				Service: Service{Name: "object-server", Manager: plan.ManagerDirect, PidFile: pidFile}})
			if err != nil {
				t.Fatal(err)
			}
			undoAtEnd(t, s)
			if how == plan.HowFreezer {
				if out, ok := sh(t, "", s.Probe); !ok {
					t.Skipf("SKIP (loud): no freezer here: %s", out)
				}
			}
			lifecycle(t, "", s, func() {
				if st := procState(t, pid); !strings.HasPrefix(st, "T") && how == plan.HowSignal {
					t.Errorf("state %q after SIGSTOP", st)
				}
				if how == plan.HowFreezer {
					b, _ := os.ReadFile("/sys/fs/cgroup/freezer/benchbed-f2-stor1/freezer.state")
					if s := strings.TrimSpace(string(b)); s != "FROZEN" && s != "FREEZING" {
						t.Errorf("freezer.state %q", s)
					}
				}
			})
			if st := procState(t, pid); strings.HasPrefix(st, "T") || st == "" {
				t.Errorf("state %q after the undo", st)
			}
		})
	}
}

func TestPauseBySwiftInitConf(t *testing.T) {
	needRoot(t, "pgrep", "python3")
	conf := filepath.Join(t.TempDir(), "object-server.conf")
	p := exec.Command("python3", "-c", "import time; time.sleep(300)", conf)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Process.Signal(syscall.SIGCONT); _ = p.Process.Kill(); _ = p.Wait() })
	s, err := Build(Target{ID: "f3-stor1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultPause, How: plan.HowSignal},
		Service: Service{Name: "object-server", Manager: plan.ManagerSwiftInit, Unit: "object-server", Conf: conf}})
	if err != nil {
		t.Fatal(err)
	}
	undoAtEnd(t, s)
	lifecycle(t, "", s, func() {
		if st := procState(t, p.Process.Pid); !strings.HasPrefix(st, "T") {
			t.Errorf("state %q after SIGSTOP", st)
		}
	})
}

func TestStopByKillStartsBack(t *testing.T) {
	needRoot(t, "pgrep")
	pidFile := filepath.Join(t.TempDir(), "object-server.pid")
	start := startDirect(t, pidFile)
	first := pidOf(t, pidFile)
	s, err := Build(Target{ID: "f4-stor1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultStop, How: plan.HowKill},
		Service: Service{Name: "object-server", Manager: plan.ManagerDirect, PidFile: pidFile, Start: start}})
	if err != nil {
		t.Fatal(err)
	}
	lifecycle(t, "", s, func() {
		if st := procState(t, first); st != "" && !strings.HasPrefix(st, "Z") {
			t.Errorf("process %d survives SIGKILL (state %q)", first, procState(t, first))
		}
	})
	if again := pidOf(t, pidFile); again == first || syscall.Kill(again, 0) != nil {
		t.Errorf("not started back: pid %d, first %d", again, first)
	}
}

// loopDisk makes an ext4 loop device mounted at dir/srv/node/d1, removed at the end.
func loopDisk(t *testing.T) Disk {
	t.Helper()
	dir := t.TempDir()
	img := filepath.Join(dir, "d1.img")
	mnt := filepath.Join(dir, "srv", "node", "d1")
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	must(t, "", "image", "truncate -s 64M "+img+" && mkfs.ext4 -q -F "+img)
	dev := strings.TrimSpace(must(t, "", "losetup", "losetup -f --show "+img))
	t.Cleanup(func() {
		_ = exec.Command("umount", "-l", mnt).Run()
		_ = exec.Command("losetup", "-d", dev).Run()
	})
	must(t, "", "mount", "mount "+dev+" "+mnt)
	return Disk{Name: "d1", Device: dev, Mount: mnt}
}

func TestFailDiskOnALoopDevice(t *testing.T) {
	needRoot(t, "losetup", "mkfs.ext4", "findmnt", "mountpoint")
	d := loopDisk(t)
	if err := os.WriteFile(filepath.Join(d.Mount, "obj"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Build(Target{ID: "f5-stor1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultFailDisk}, Disks: []Disk{d}})
	if err != nil {
		t.Fatal(err)
	}
	undoAtEnd(t, s)
	lifecycle(t, "", s, func() {
		if _, err := os.Stat(filepath.Join(d.Mount, "obj")); err == nil {
			t.Error("the disk's file is still visible: not unmounted")
		}
	})
	if _, err := os.Stat(filepath.Join(d.Mount, "obj")); err != nil {
		t.Errorf("not mounted back: %v", err)
	}
	if src := strings.TrimSpace(must(t, "", "findmnt", "findmnt -rno SOURCE --mountpoint "+d.Mount)); src != d.Device {
		t.Errorf("mounted back from %q, not %q", src, d.Device)
	}
}

func TestSlowDiskThrottlesTheServiceOnALoopDevice(t *testing.T) {
	needRoot(t, "losetup", "mkfs.ext4", "pgrep", "dd")
	d := loopDisk(t)
	pidFile := filepath.Join(t.TempDir(), "object-server.pid")
	startDirect(t, pidFile)
	pid := pidOf(t, pidFile)
	before, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	s, err := Build(Target{ID: "f6-stor1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultSlowDisk, ReadBytesPerS: 2 << 20},
		Service: Service{Name: "object-server", Manager: plan.ManagerDirect, PidFile: pidFile}, Disks: []Disk{d}})
	if err != nil {
		t.Fatal(err)
	}
	undoAtEnd(t, s)
	if out, ok := sh(t, "", s.Probe); !ok {
		t.Skipf("SKIP (loud): no block throttle here: %s", out)
	}
	dd := "dd if=" + d.Device + " of=/dev/null bs=1M count=4 iflag=direct 2>&1 | tail -n 1"
	lifecycle(t, "", s, func() {
		cg := "/sys/fs/cgroup/blkio/benchbed-f6-stor1"
		if _, err := os.Stat(cg); err != nil {
			cg = "/sys/fs/cgroup/benchbed-f6-stor1"
		}
		procs, _ := os.ReadFile(filepath.Join(cg, "cgroup.procs"))
		if !strings.Contains(" "+strings.ReplaceAll(string(procs), "\n", " "), " "+strconv.Itoa(pid)+" ") {
			t.Errorf("pid %d not in %s: %q", pid, cg, procs)
		}
		limit, _ := os.ReadFile(filepath.Join(cg, "blkio.throttle.read_bps_device"))
		if m, _ := os.ReadFile(filepath.Join(cg, "io.max")); len(m) > 0 {
			limit = m
		}
		if !strings.Contains(string(limit), "2097152") {
			t.Errorf("no read limit in %s: %q", cg, limit)
		}
		// What the throttle does, measured (not a pass/fail): a read by a
		// process in the service's cgroup, and one outside it.
		in := must(t, "", "throttled dd", "echo $$ > "+cg+"/cgroup.procs; "+dd)
		out := must(t, "", "free dd", dd)
		t.Logf("O_DIRECT read of 4 MiB from %s: in the throttled cgroup %s; outside %s", d.Device, strings.TrimSpace(in), strings.TrimSpace(out))
	})
	after, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if string(before) != string(after) {
		t.Errorf("pid %d not back in its cgroups:\nbefore %s\nafter %s", pid, before, after)
	}
}
