package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// What a killed test binary leaves behind, and how the next one finds it:
//   - benchbed processes it started (a sweep, a prefill) still running from
//     its build directory, os.TempDir()/benchbed-e2e-*/benchbed: killed;
//   - those build directories: removed;
//   - the lab with a sweep's locks, copies of the originals and load agents:
//     all of them live in the lab's state directory and network namespaces,
//     which the `down` that follows removes; they are logged here first;
//   - a sweep lock in the machine's own /var/tmp (labs before each host had
//     its own /var/tmp): removed when its holder no longer runs.
//
// Each is logged, so that a run says what an earlier one left.

// cleanLeftovers clears what earlier, killed test binaries left, logging
// each thing to w. It runs under the e2e lock, so no live test owns them.
func cleanLeftovers(w io.Writer) {
	killOrphans(w)
	removeBuildDirs(w)
	logLabState(w)
	removeMachineLock(w, "/var/tmp/benchbed-sweep.lock")
}

// buildDirGlob matches the directories Env.binary builds benchbed into.
func buildDirGlob() string { return filepath.Join(os.TempDir(), "benchbed-e2e-*") }

// killOrphans kills every process running a benchbed built by an earlier
// test binary, and waits until each is gone.
func killOrphans(w io.Writer) {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(p))
		if err != nil || pid == os.Getpid() {
			continue
		}
		exe, err := os.Readlink(p + "/exe")
		if err != nil {
			continue
		}
		exe = strings.TrimSuffix(exe, " (deleted)")
		if ok, _ := filepath.Match(filepath.Join(buildDirGlob(), "benchbed"), exe); !ok || exe == filepath.Join(buildDir, "benchbed") {
			continue
		}
		cmd, _ := os.ReadFile(p + "/cmdline")
		fmt.Fprintf(w, "e2e: killing pid %d left by an earlier test run: %s\n", pid, strings.ReplaceAll(strings.TrimSpace(string(cmd)), "\x00", " "))
		_ = syscall.Kill(pid, syscall.SIGKILL)
		for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// removeBuildDirs removes earlier test binaries' build directories.
func removeBuildDirs(w io.Writer) {
	dirs, _ := filepath.Glob(buildDirGlob())
	for _, d := range dirs {
		if fi, err := os.Lstat(d); d == buildDir || err != nil || !fi.IsDir() {
			continue // this binary's, or no build directory (a file of that name)
		}
		fmt.Fprintf(w, "e2e: removing %s, left by an earlier test run\n", d)
		_ = os.RemoveAll(d)
	}
}

// logLabState says which sweep locks and copies of originals an earlier
// run left in the lab's state, which the following `down` removes.
func logLabState(w io.Writer) {
	locks, _ := filepath.Glob(filepath.Join(LabDir, "hosts", "*", "tmp", "benchbed", "sweep.lock", "holder"))
	for _, l := range locks {
		b, _ := os.ReadFile(l)
		host := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(l)))))
		fmt.Fprintf(w, "e2e: %s: a sweep's lock was left (%s); taking the lab down removes it\n", host, strings.TrimSpace(string(b)))
	}
	copies, _ := filepath.Glob(filepath.Join(LabDir, "hosts", "*", "etc-swift", "*.benchbed-sweep-orig"))
	if len(copies) > 0 {
		fmt.Fprintf(w, "e2e: %d copies of originals were left by an unrestored sweep (%s, ...); taking the lab down removes them\n",
			len(copies), copies[0])
	}
}

// removeMachineLock removes a sweep lock on this machine itself whose
// holder (a benchbed of this machine) no longer runs.
func removeMachineLock(w io.Writer, dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "holder"))
	if err != nil {
		return
	}
	var h struct {
		Run string `json:"run"`
		PID int    `json:"pid"`
	}
	if json.Unmarshal(b, &h) == nil && h.PID > 0 && syscall.Kill(h.PID, 0) == nil {
		fmt.Fprintf(w, "e2e: %s is held by run %s, pid %d, still running: left in place\n", dir, h.Run, h.PID)
		return
	}
	fmt.Fprintf(w, "e2e: removing %s, left by run %s (pid %d, gone)\n", dir, h.Run, h.PID)
	_ = os.RemoveAll(dir)
}
