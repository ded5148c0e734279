package custody

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// changedPrefix starts the lines of restoreScript's output that name a file
// whose content the restore changed (it differed from its original).
const changedPrefix = "changed "

// restoreScript puts each original back (atomically, with its mode and
// owner; a file that holds it already, with its mode and owner, is left, so that its ctime still
// says when it last changed: cluster.Daemon.ReloadScript reads it) or
// removes a file that did not exist, saying first which files
// differed from their originals, then prints the checksums as backupScript
// does.
func restoreScript(files []rundir.Original) string {
	var b strings.Builder
	for _, f := range files {
		o, a := remote.Quote(f.Path+BackupSuffix), remote.Quote(f.Path+BackupSuffix+"-absent")
		q, t := remote.Quote(f.Path), remote.Quote(f.Path+".benchbed-restore")
		fmt.Fprintf(&b, "if [ -e %[1]s ] && ! cmp -s %[1]s %[3]s; then echo %[4]s%[3]s; elif [ -e %[2]s ] && [ -e %[3]s ]; then echo %[4]s%[3]s; fi\n",
			o, a, q, remote.Quote(changedPrefix))
		fmt.Fprintf(&b, "if [ -e %[1]s ]; then { cmp -s %[1]s %[3]s && [ \"$(stat -c %%a:%%u:%%g %[1]s)\" = \"$(stat -c %%a:%%u:%%g %[3]s)\" ]; } || { cp -p %[1]s %[4]s && mv -f %[4]s %[3]s; }; elif [ -e %[2]s ]; then rm -f %[3]s; fi\n", o, a, q, t)
		fmt.Fprintf(&b, "if [ -e %[1]s ]; then echo \"$(sha256sum < %[1]s | cut -c1-64) \"%[1]s; else echo absent %[1]s; fi\n", q)
	}
	return b.String()
}

// dropScript removes the backups once the originals are verified back,
// then the directories the backup created (rmdirsScript).
func dropScript(files []rundir.Original) string {
	var ps []string
	for _, f := range files {
		ps = append(ps, remote.Quote(f.Path+BackupSuffix), remote.Quote(f.Path+BackupSuffix+"-absent"))
	}
	return "rm -f " + strings.Join(ps, " ") + "\n" + rmdirsScript(files)
}

// restoreFiles puts back every original of b on its host, compares each
// file's checksum with the backup's, and removes the backups of a host
// whose files all match. A mismatch keeps the backups and is an error
// naming the host and file.
func restoreFiles(ctx context.Context, r cluster.Runner, b rundir.Backup) error {
	byHost := RestoreFilesByHost(ctx, r, b)
	var errs []error
	for _, h := range slices.Sorted(maps.Keys(byHost)) {
		errs = append(errs, byHost[h].Err)
	}
	return errors.Join(errs...)
}

// HostRestore is what restoring one host's originals did.
type HostRestore struct {
	Changed []string // the files whose content the restore changed
	Err     error    // nil: the originals are back and the backups gone
}

// RestoreFilesByHost is restoreFiles on every host at once, with what each
// host's restore changed, and its error.
func RestoreFilesByHost(ctx context.Context, r cluster.Runner, b rundir.Backup) map[string]HostRestore {
	hosts := slices.Sorted(maps.Keys(b))
	outs := make([]HostRestore, len(hosts))
	_ = r.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		i := slices.Index(hosts, host)
		outs[i].Changed, outs[i].Err = restoreHostFiles(ctx, r, host, b[host])
		return nil
	}).Err()
	out := map[string]HostRestore{}
	for i, h := range hosts {
		out[h] = outs[i]
	}
	return out
}

// restoreHostFiles puts back the originals of files on host, checks them
// and removes the backups. It returns the files whose content it changed.
func restoreHostFiles(ctx context.Context, r cluster.Runner, host string, files []rundir.Original) ([]string, error) {
	if len(files) == 0 {
		return nil, nil
	}
	res, err := r.Run(ctx, host, restoreScript(files))
	if err != nil {
		return nil, fmt.Errorf("putting back the originals: %w", err) // err names the host
	}
	var changed, sums []string
	for _, l := range strings.Split(strings.TrimSpace(string(res.Stdout)), "\n") {
		if p, ok := strings.CutPrefix(l, changedPrefix); ok {
			changed = append(changed, p)
		} else {
			sums = append(sums, l)
		}
	}
	got, err := parseSums(strings.Join(sums, "\n"))
	if err != nil {
		return changed, fmt.Errorf("%s: restore: %w", host, err)
	}
	var errs []error
	for i, f := range files {
		if i >= len(got) || got[i] != f {
			errs = append(errs, fmt.Errorf("%s: %s differs from its backup after the restore (backup kept at %s)", host, f.Path, f.Path+BackupSuffix))
		}
	}
	if len(errs) > 0 {
		return changed, errors.Join(errs...)
	}
	if _, err := r.Run(ctx, host, dropScript(files)); err != nil {
		return changed, fmt.Errorf("%s: removing the backups: %w", host, err)
	}
	return changed, nil
}
