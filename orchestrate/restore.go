package orchestrate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"benchbed/results"
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

// backupScript copies each original next to itself (a copy left by an
// interrupted sweep is kept: it is the older original) and prints the
// checksum of each backup, or "absent".
func backupScript(paths []string) string {
	var b strings.Builder
	b.WriteString("set -e\n")
	for _, p := range paths {
		o, a := shellQuote(p+SweepBackupSuffix), shellQuote(p+SweepBackupSuffix+"-absent")
		q := shellQuote(p)
		fmt.Fprintf(&b, "if [ ! -e %[1]s ] && [ ! -e %[2]s ]; then if [ -e %[3]s ]; then cp -p %[3]s %[1]s.tmp && mv %[1]s.tmp %[1]s; else : > %[2]s; fi; fi\n", o, a, q)
		fmt.Fprintf(&b, "if [ -e %[1]s ]; then echo \"$(sha256sum < %[1]s | cut -c1-64) \"%[2]s; else echo absent %[2]s; fi\n", o, q)
	}
	return b.String()
}

// TakeBackup backs up files (per host) on the hosts and writes the
// manifest into the run.
func TakeBackup(ctx context.Context, r Runner, run *results.Run, files map[string][]string) (Backup, error) {
	b := Backup{}
	var mu sync.Mutex
	err := forHosts(ctx, slices.Sorted(maps.Keys(files)), func(ctx context.Context, host string) error {
		res, err := r.Run(ctx, host, backupScript(files[host]))
		if err != nil {
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
func ReadBackup(run *results.Run) (Backup, error) {
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
