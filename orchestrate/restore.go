package orchestrate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"benchbed/remote"
	"benchbed/rundir"
)

// SweepBackupSuffix names a sweep's copy of an original file on its host;
// with "-absent" it marks a file that did not exist before the sweep.
const SweepBackupSuffix = ".benchbed-sweep-orig"

// BackupFile is one file a sweep may change, and its original's checksum.
type BackupFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"` // "" when Absent
	Absent bool   `json:"absent,omitempty"` // the file did not exist
}

// Backup is what a sweep saved before its first change: per host the
// originals of every file it may change. It lives in the run directory as
// backup.json (paths and checksums only; the copies stay on the hosts).
type Backup map[string][]BackupFile

// BackupName is the manifest's name in the run directory.
const BackupName = "backup.json"

// backupScript copies each original next to itself and prints the
// checksum of each backup, or "absent". A copy already there was left by
// an earlier attempt: resuming its run, it is kept (it is the older
// original); otherwise the script changes nothing, prints "stale <path>"
// for each such copy and fails.
func backupScript(paths []string, resume bool) string {
	var b strings.Builder
	b.WriteString("set -e\n")
	if !resume {
		b.WriteString("stale=0\n")
		for _, p := range paths {
			o, a := shellQuote(p+SweepBackupSuffix), shellQuote(p+SweepBackupSuffix+"-absent")
			fmt.Fprintf(&b, "if [ -e %s ] || [ -e %s ]; then echo stale %s; stale=1; fi\n", o, a, shellQuote(p))
		}
		b.WriteString("if [ $stale = 1 ]; then exit 3; fi\n")
	}
	for _, p := range paths {
		o, a := shellQuote(p+SweepBackupSuffix), shellQuote(p+SweepBackupSuffix+"-absent")
		q := shellQuote(p)
		fmt.Fprintf(&b, "if [ ! -e %[1]s ] && [ ! -e %[2]s ]; then if [ -e %[3]s ]; then cp -p %[3]s %[1]s.tmp && mv %[1]s.tmp %[1]s; else : > %[2]s; fi; fi\n", o, a, q)
		fmt.Fprintf(&b, "if [ -e %[1]s ]; then echo \"$(sha256sum < %[1]s | cut -c1-64) \"%[2]s; else echo absent %[2]s; fi\n", o, q)
	}
	return b.String()
}

// StaleBackupError is a sweep's copy of an original left on a host by an
// earlier sweep that was not restored: a new sweep would take it for the
// original and, at its end, put it back over whatever changed since.
type StaleBackupError struct {
	Host  string
	Paths []string
}

func (e *StaleBackupError) Error() string {
	return fmt.Sprintf("%s: a sweep's copy (%s) of %s is left by an earlier sweep that was not restored: "+
		"run `benchbed restore` on that run, or remove the copies if the files as they are now are the originals; "+
		"nothing changed", e.Host, SweepBackupSuffix, strings.Join(e.Paths, ", "))
}

// TakeBackup backs up files (per host) on the hosts and writes the
// manifest into the run. resume: the run was started before, and copies
// it left are its originals; otherwise such a copy is a *StaleBackupError
// and that host is left as it was.
func TakeBackup(ctx context.Context, r Runner, run *rundir.Run, files map[string][]string, resume bool) (Backup, error) {
	b := Backup{}
	var mu sync.Mutex
	err := forHosts(ctx, slices.Sorted(maps.Keys(files)), func(ctx context.Context, host string) error {
		res, err := r.Run(ctx, host, backupScript(files[host], resume))
		if err != nil {
			if stale := staleLines(res); len(stale) > 0 {
				return &StaleBackupError{Host: host, Paths: stale}
			}
			return fmt.Errorf("%s: backup: %w", host, err)
		}
		got, err := parseSums(string(res.Stdout))
		if err != nil {
			return fmt.Errorf("%s: backup: %w", host, err)
		}
		mu.Lock()
		b[host] = got
		mu.Unlock()
		return nil
	})
	if len(b) > 0 {
		data, merr := json.MarshalIndent(b, "", "  ")
		if merr == nil {
			merr = run.WriteFile(BackupName, data)
		}
		if merr != nil && err == nil {
			err = merr
		}
	}
	return b, err
}

// staleLines are the paths a refused backup script named.
func staleLines(res *remote.Result) []string {
	if res == nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(res.Stdout), "\n") {
		if p, ok := strings.CutPrefix(l, "stale "); ok {
			out = append(out, p)
		}
	}
	return out
}

// parseSums reads "<sha256> <path>" and "absent <path>" lines.
func parseSums(out string) ([]BackupFile, error) {
	var fs []BackupFile
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		sum, p, ok := strings.Cut(l, " ")
		if !ok || (sum != "absent" && len(sum) != 64) {
			return nil, fmt.Errorf("unexpected checksum line %q", l)
		}
		if sum == "absent" {
			fs = append(fs, BackupFile{Path: p, Absent: true})
		} else {
			fs = append(fs, BackupFile{Path: p, SHA256: sum})
		}
	}
	return fs, nil
}

// ReadBackup reads a run's manifest (nil when the run took none).
func ReadBackup(run *rundir.Run) (Backup, error) {
	p, err := run.Path(BackupName)
	if err != nil {
		return nil, err
	}
	data, err := readFileIfAny(p)
	if err != nil || data == nil {
		return nil, err
	}
	var b Backup
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return b, nil
}
