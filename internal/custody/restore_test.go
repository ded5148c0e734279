package custody

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/labtest"
	"benchbed/results/rundir"
)

func TestBackupRestoreByteIdentical(t *testing.T) {
	r := lockShells(t, "h1")
	dir := t.TempDir()
	conf, ring, fresh := filepath.Join(dir, "object-server.conf"), filepath.Join(dir, "object.ring.gz"), filepath.Join(dir, "new.conf")
	os.WriteFile(conf, []byte("[DEFAULT]\nworkers = 4\n"), 0o640)
	os.WriteFile(ring, []byte{0x1f, 0x8b, 1, 2, 3}, 0o644)
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	files := map[string][]string{"h1": {conf, ring, fresh}}
	b, err := TakeBackup(ctx, r, run, files, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(b["h1"]) != 3 || !b["h1"][2].Absent || len(b["h1"][0].SHA256) != 64 {
		t.Fatalf("backup %+v", b)
	}
	// The sweep changes them.
	os.WriteFile(conf, []byte("[DEFAULT]\nworkers = 8\n"), 0o600)
	os.WriteFile(ring, []byte("other ring"), 0o644)
	os.WriteFile(fresh, []byte("x"), 0o644)
	// An interrupted sweep's second backup keeps the originals.
	if _, err := TakeBackup(ctx, r, run, files, true); err != nil {
		t.Fatal(err)
	}
	read, err := run.ReadBackup()
	if err != nil || len(read["h1"]) != 3 || read["h1"][0] != b["h1"][0] {
		t.Fatalf("manifest %+v, %v", read, err)
	}
	if err := restoreFiles(ctx, r, read); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(conf); string(got) != "[DEFAULT]\nworkers = 4\n" {
		t.Fatalf("conf %q", got)
	}
	if st, _ := os.Stat(conf); st.Mode().Perm() != 0o640 {
		t.Fatalf("conf mode %v, want the original 0640", st.Mode().Perm())
	}
	if got, _ := os.ReadFile(ring); string(got) != "\x1f\x8b\x01\x02\x03" {
		t.Fatalf("ring %q", got)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Fatal("a file that did not exist before is removed")
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*benchbed*"))
	if len(left) != 0 {
		t.Fatalf("backups left after a verified restore: %v", left)
	}
}

func TestRestoreReportsMismatch(t *testing.T) {
	r := lockShells(t, "h1")
	dir := t.TempDir()
	conf := filepath.Join(dir, "a.conf")
	os.WriteFile(conf, []byte("one"), 0o644)
	b := rundir.Backup{"h1": {{Path: conf, SHA256: strings.Repeat("0", 64)}}}
	os.WriteFile(conf+BackupSuffix, []byte("one"), 0o644)
	err := restoreFiles(context.Background(), r, b)
	if err == nil || !strings.Contains(err.Error(), "h1") || !strings.Contains(err.Error(), conf) {
		t.Fatalf("err = %v, want the host and file that differ", err)
	}
	if _, err := os.Stat(conf + BackupSuffix); err != nil {
		t.Fatal("the backup is kept when the check fails")
	}
}

func TestCaptureEnv(t *testing.T) {
	r := lockShells(t, "h1", "h2")
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := cluster.CaptureEnv(context.Background(), r, run, []string{"h1", "h2"}); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"h1", "h2"} {
		b, err := os.ReadFile(filepath.Join(run.Dir, rundir.EnvDir, h+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"## kernel\nLinux", "## memory\nMemTotal", "net.core.somaxconn = ", "## swift"} {
			if !strings.Contains(string(b), want) {
				t.Fatalf("%s env lacks %q:\n%s", h, want, b)
			}
		}
	}
}

// TestNewSweepRefusesAStaleBackup: a copy left by an earlier sweep that
// was not restored refuses a new sweep's backup on that host, naming host
// and file, and nothing is copied there; a resume keeps it.
func TestNewSweepRefusesAStaleBackup(t *testing.T) {
	r := lockShells(t, "h1")
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.conf"), filepath.Join(dir, "b.conf")
	os.WriteFile(a, []byte("now"), 0o644)
	os.WriteFile(b, []byte("b"), 0o644)
	os.WriteFile(a+BackupSuffix, []byte("before"), 0o644)
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]string{"h1": {a, b}}
	_, err = TakeBackup(context.Background(), r, run, files, false)
	var se *staleBackupError
	if !errors.As(err, &se) || se.Host != "h1" || len(se.Paths) != 1 || se.Paths[0] != a || !strings.Contains(err.Error(), "benchbed restore") {
		t.Fatalf("err = %v, want h1's stale copy of %s named", err, a)
	}
	if _, err := os.Stat(b + BackupSuffix); !os.IsNotExist(err) {
		t.Fatalf("the refused backup copied %s (%v)", b, err)
	}
	got, err := TakeBackup(context.Background(), r, run, files, true)
	if err != nil || len(got["h1"]) != 2 || got["h1"][0].SHA256 == "" {
		t.Fatalf("resume: %+v, %v", got, err)
	}
}

// TestRestoreSaysWhatItChanged: the restore names the files whose content
// it changed (a conf rewritten, a file the sweep created) and not those
// already back to their originals, so that a settled sweep restarts only
// their servers.
func TestRestoreSaysWhatItChanged(t *testing.T) {
	r := lockShells(t, "h1")
	dir := t.TempDir()
	conf, same, fresh := filepath.Join(dir, "object-server.conf"), filepath.Join(dir, "proxy-server.conf"), filepath.Join(dir, "new.conf")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(conf, []byte("workers = 4\n"), 0o640))
	must(os.WriteFile(same, []byte("workers = 1\n"), 0o640))
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	must(err)
	ctx := context.Background()
	b, err := TakeBackup(ctx, r, run, map[string][]string{"h1": {conf, same, fresh}}, false)
	must(err)
	must(os.WriteFile(conf, []byte("workers = 8\n"), 0o640))
	must(os.WriteFile(fresh, []byte("x"), 0o640))
	changed, err := restoreHostFiles(ctx, r, "h1", b["h1"])
	must(err)
	if strings.Join(changed, " ") != conf+" "+fresh {
		t.Fatalf("changed %q, want %s and %s", changed, conf, fresh)
	}
	// Again, with the backups gone and the originals in place: nothing
	// changes, and the checksums still match.
	if changed, err := restoreHostFiles(ctx, r, "h1", b["h1"]); err != nil || len(changed) != 0 {
		t.Fatalf("a second restore: changed %q, err %v; want nothing changed", changed, err)
	}
}

// TestRestoredServices: a restored object-server.conf restarts the object
// server only, a restored object ring every object-role service and the
// proxy, and swift.conf every service of the host.
func TestRestoredServices(t *testing.T) {
	tb := labtest.LabTestbed(t)
	h := tb.Host("stor1")
	cases := []struct {
		changed []string
		want    string
	}{
		{[]string{"/etc/swift/object-server.conf"}, "object-server"},
		{[]string{"/etc/swift/object.ring.gz", "/etc/swift/object.builder"}, "object-server"},
		{[]string{"/etc/swift/container.ring.gz"}, "container-server"},
		{[]string{"/etc/swift/proxy-server.conf"}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		got := slices.Sorted(maps.Keys(cluster.RestoredServices(tb, h, c.changed)))
		if strings.Join(got, ",") != c.want {
			t.Errorf("%v: restart %v, want %s", c.changed, got, c.want)
		}
	}
	if n := len(cluster.RestoredServices(tb, h, []string{"/etc/swift/swift.conf"})); n != len(cluster.HostServices(tb, h)) {
		t.Errorf("swift.conf restarts %d services, want all %d", n, len(cluster.HostServices(tb, h)))
	}
	// On the proxy's host, a changed ring restarts the proxy, which would
	// use the ring's old ports until its reload_time.
	p := tb.Host("proxy1")
	if got := slices.Sorted(maps.Keys(cluster.RestoredServices(tb, p, []string{"/etc/swift/object.ring.gz"}))); strings.Join(got, ",") != "proxy-server" {
		t.Errorf("proxy1, object ring restored: restart %v, want proxy-server", got)
	}
	if got := cluster.RestoredServices(tb, p, []string{"/etc/swift/object.builder"}); len(got) != 0 {
		t.Errorf("proxy1, only the builder restored: restart %v, want nothing", got)
	}
}
