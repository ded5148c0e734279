package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// restoreScript puts each original back (atomically, with its mode and
// owner) or removes a file that did not exist, then prints the checksums
// as backupScript does.
func restoreScript(files []BackupFile) string {
	var b strings.Builder
	for _, f := range files {
		o, a := shellQuote(f.Path+SweepBackupSuffix), shellQuote(f.Path+SweepBackupSuffix+"-absent")
		q, t := shellQuote(f.Path), shellQuote(f.Path+".benchbed-restore")
		fmt.Fprintf(&b, "if [ -e %[1]s ]; then cp -p %[1]s %[4]s && mv -f %[4]s %[3]s; elif [ -e %[2]s ]; then rm -f %[3]s; fi\n", o, a, q, t)
		fmt.Fprintf(&b, "if [ -e %[1]s ]; then echo \"$(sha256sum < %[1]s | cut -c1-64) \"%[1]s; else echo absent %[1]s; fi\n", q)
	}
	return b.String()
}

// dropScript removes the backups once the originals are verified back.
func dropScript(files []BackupFile) string {
	var ps []string
	for _, f := range files {
		ps = append(ps, shellQuote(f.Path+SweepBackupSuffix), shellQuote(f.Path+SweepBackupSuffix+"-absent"))
	}
	return "rm -f " + strings.Join(ps, " ")
}

// RestoreFiles puts back every original of b on its host, compares each
// file's checksum with the backup's, and removes the backups of a host
// whose files all match. A mismatch keeps the backups and is an error
// naming the host and file.
func RestoreFiles(ctx context.Context, r Runner, b Backup) error {
	byHost := restoreFilesByHost(ctx, r, b)
	var errs []error
	for _, h := range slices.Sorted(maps.Keys(byHost)) {
		errs = append(errs, byHost[h])
	}
	return errors.Join(errs...)
}

// restoreFilesByHost is RestoreFiles on every host at once, with each
// host's error (nil: its originals are back and its backups gone).
func restoreFilesByHost(ctx context.Context, r Runner, b Backup) map[string]error {
	hosts := slices.Sorted(maps.Keys(b))
	errs := make([]error, len(hosts))
	_ = forHosts(ctx, hosts, func(ctx context.Context, host string) error {
		errs[slices.Index(hosts, host)] = restoreHostFiles(ctx, r, host, b[host])
		return nil
	})
	out := map[string]error{}
	for i, h := range hosts {
		out[h] = errs[i]
	}
	return out
}

// restoreHostFiles puts back the originals of files on host, checks them
// and removes the backups.
func restoreHostFiles(ctx context.Context, r Runner, host string, files []BackupFile) error {
	if len(files) == 0 {
		return nil
	}
	res, err := r.Run(ctx, host, restoreScript(files))
	if err != nil {
		return fmt.Errorf("putting back the originals: %w", err) // err names the host
	}
	got, err := parseSums(string(res.Stdout))
	if err != nil {
		return fmt.Errorf("%s: restore: %w", host, err)
	}
	var errs []error
	for i, f := range files {
		if i >= len(got) || got[i] != f {
			errs = append(errs, fmt.Errorf("%s: %s differs from its backup after the restore (backup kept at %s)", host, f.Path, f.Path+SweepBackupSuffix))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if _, err := r.Run(ctx, host, dropScript(files)); err != nil {
		return fmt.Errorf("%s: removing the backups: %w", host, err)
	}
	return nil
}

// readFileIfAny reads p, or returns nil when it does not exist.
func readFileIfAny(p string) ([]byte, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return data, err
}
