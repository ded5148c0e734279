package custody

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"benchbed/internal/cluster"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// BackupSuffix names a sweep's copy of an original file on its host;
// with "-absent" it marks a file that did not exist before the sweep.
const BackupSuffix = ".benchbed-sweep-orig"

// backupScript copies each original next to itself and prints the
// checksum of each backup, or "absent"; a file whose directory does not
// exist is absent, its directory created (mkdirsScript) for the mark. A copy already there was left by
// an earlier attempt: resuming its run, it is kept (it is the older
// original); otherwise the script changes nothing, prints "stale <path>"
// for each such copy and fails.
func backupScript(paths []string, resume bool) string {
	var b strings.Builder
	b.WriteString("set -e\n")
	if !resume {
		b.WriteString("stale=0\n")
		for _, p := range paths {
			o, a := remote.Quote(p+BackupSuffix), remote.Quote(p+BackupSuffix+"-absent")
			fmt.Fprintf(&b, "if [ -e %s ] || [ -e %s ]; then echo stale %s; stale=1; fi\n", o, a, remote.Quote(p))
		}
		b.WriteString("if [ $stale = 1 ]; then exit 3; fi\n")
	}
	for _, p := range paths {
		o, a := remote.Quote(p+BackupSuffix), remote.Quote(p+BackupSuffix+"-absent")
		q := remote.Quote(p)
		b.WriteString(mkdirsScript(p))
		fmt.Fprintf(&b, "if [ ! -e %[1]s ] && [ ! -e %[2]s ]; then if [ -e %[3]s ]; then cp -p %[3]s %[1]s.tmp && mv %[1]s.tmp %[1]s; else : > %[2]s; fi; fi\n", o, a, q)
		fmt.Fprintf(&b, "if [ -e %[1]s ]; then echo \"$(sha256sum < %[1]s | cut -c1-64) \"%[2]s; else echo absent %[2]s; fi\n", o, q)
	}
	return b.String()
}

// staleBackupError is a sweep's copy of an original left on a host by an
// earlier sweep that was not restored: a new sweep would take it for the
// original and, at its end, put it back over whatever changed since.
type staleBackupError struct {
	Host  string
	Paths []string
}

func (e *staleBackupError) Error() string {
	return fmt.Sprintf("%s: a sweep's copy (%s) of %s is left by an earlier sweep that was not restored: "+
		"run `benchbed restore` on that run, or remove the copies if the files as they are now are the originals; "+
		"nothing changed", e.Host, BackupSuffix, strings.Join(e.Paths, ", "))
}

// TakeBackup backs up files (per host) on the hosts and writes the
// manifest into the run. resume: the run was started before, and copies
// it left are its originals; otherwise such a copy is a *staleBackupError
// and that host is left as it was.
func TakeBackup(ctx context.Context, r cluster.Runner, run *rundir.Run, files map[string][]string, resume bool) (rundir.Backup, error) {
	b := rundir.Backup{}
	var mu sync.Mutex
	err := r.FanOut(ctx, slices.Sorted(maps.Keys(files)), func(ctx context.Context, host string) error {
		res, err := r.Run(ctx, host, backupScript(files[host], resume))
		if err != nil {
			if stale := staleLines(res); len(stale) > 0 {
				return &staleBackupError{Host: host, Paths: stale}
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
	}).Err()
	if len(b) > 0 {
		if werr := run.WriteBackup(b); werr != nil && err == nil {
			err = werr
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
func parseSums(out string) ([]rundir.Original, error) {
	var fs []rundir.Original
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		sum, p, ok := strings.Cut(l, " ")
		if !ok || (sum != "absent" && len(sum) != 64) {
			return nil, fmt.Errorf("unexpected checksum line %q", l)
		}
		if sum == "absent" {
			fs = append(fs, rundir.Original{Path: p, Absent: true})
		} else {
			fs = append(fs, rundir.Original{Path: p, SHA256: sum})
		}
	}
	return fs, nil
}
