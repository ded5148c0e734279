package cluster

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
)

// mountStubs are the commands mountScript runs, as stubs: the device is an
// unmounted block device holding $STUB_HAVE labelled $STUB_LABEL; mkfs and
// mount are only logged.
var mountStubs = map[string]string{
	"mountpoint": "exit 1",
	"stat":       `echo "block special file"`,
	"findmnt":    `case "$*" in *--source*) ;; *FSTYPE*) echo xfs ;; esac`,
	"blkid":      `case "$*" in *TYPE*) [ -n "$STUB_HAVE" ] && echo "$STUB_HAVE" || exit 2 ;; *LABEL*) echo "$STUB_LABEL" ;; esac`,
	"mkfs.xfs":   `echo "mkfs.xfs $*" >> "$STUB_LOG"`,
	"mount":      `echo "mount $*" >> "$STUB_LOG"`,
	"mkdir":      `echo "mkdir $*" >> "$STUB_LOG"`,
}

// runMount runs disk d's mount script against the stubs and returns its
// commands it ran, the fstab it left and its error.
func runMount(t *testing.T, d plan.Disk, have, label, fstab string) (ran, left string, err error) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range mountStubs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fs, log := filepath.Join(dir, "fstab"), filepath.Join(dir, "log")
	if err := os.WriteFile(fs, []byte(fstab), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "set -e\n" + mountFunctions + mountScriptAt(d, "/srv/node/"+d.Name, fs)
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin", "STUB_HAVE=" + have, "STUB_LABEL=" + label, "STUB_LOG=" + log}
	out, err := cmd.CombinedOutput()
	r, _ := os.ReadFile(log)
	l, _ := os.ReadFile(fs)
	if err != nil {
		t.Logf("script output: %s", out)
	}
	return string(r), string(l), err
}

// TestMountScriptFormatsOnlyWhatItMayFormat: an empty device is formatted
// with format = true; setup's own filesystem is mounted as is; another
// filesystem is refused unless format = "force"; without format an empty
// device is refused. Every mount gets Swift's options and an fstab line.
func TestMountScriptFormatsOnlyWhatItMayFormat(t *testing.T) {
	f := plan.Disk{Name: "d0", Device: "/dev/vdb", Format: true}
	force := f
	force.Force = true
	cases := []struct {
		name         string
		d            plan.Disk
		have, label  string
		ok, mkfs     bool
		mountedFsTyp string
	}{
		{"empty, format", f, "", "", true, true, "xfs"},
		{"setup's own", f, "xfs", "d0", true, false, "xfs"},
		{"setup's own, force", force, "xfs", "d0", true, false, "xfs"},
		{"another xfs label", f, "xfs", "data", false, false, ""},
		{"ext4", f, "ext4", "d0", false, false, ""},
		{"ext4, force", force, "ext4", "home", true, true, "xfs"},
		{"empty, no format", plan.Disk{Name: "d0", Device: "/dev/vdb"}, "", "", false, false, ""},
		{"ext4, no format", plan.Disk{Name: "d0", Device: "/dev/vdb"}, "ext4", "x", true, false, "ext4"},
	}
	for _, c := range cases {
		ran, fstab, err := runMount(t, c.d, c.have, c.label, "# fstab\n")
		if (err == nil) != c.ok {
			t.Errorf("%s: error %v, want ok=%v", c.name, err, c.ok)
		}
		if got := strings.Contains(ran, "mkfs.xfs -q -f -L d0 /dev/vdb"); got != c.mkfs {
			t.Errorf("%s: formatted %v, want %v; ran:\n%s", c.name, got, c.mkfs, ran)
		}
		if c.mountedFsTyp == "" {
			if strings.Contains(ran, "mount ") {
				t.Errorf("%s: mounted a refused device:\n%s", c.name, ran)
			}
			continue
		}
		opts := map[string]string{"xfs": "noatime,nodiratime,logbufs=8", "ext4": "noatime,nodiratime"}[c.mountedFsTyp]
		if want := "mount -t " + c.mountedFsTyp + " -o " + opts + " /dev/vdb"; !strings.Contains(ran, want) {
			t.Errorf("%s: ran no %q:\n%s", c.name, want, ran)
		}
		if want := "/dev/vdb /srv/node/d0 xfs noatime,nodiratime,logbufs=8,nofail 0 0"; !strings.Contains(fstab, want) {
			t.Errorf("%s: fstab lacks %q:\n%s", c.name, want, fstab)
		}
	}
}

// TestMountScriptKeepsFstab: a mount point already in fstab gets no second
// line; a commented one does not count.
func TestMountScriptKeepsFstab(t *testing.T) {
	d := plan.Disk{Name: "d0", Device: "/dev/vdb", Format: true}
	for _, have := range []string{"LABEL=d0 /srv/node/d0 xfs noatime 0 0\n", "#/dev/vdb /srv/node/d0 xfs noatime 0 0\n"} {
		_, fstab, err := runMount(t, d, "xfs", "d0", have)
		want := 1
		if strings.HasPrefix(have, "#") {
			want = 2
		}
		if err != nil || strings.Count(fstab, "/srv/node/d0") != want {
			t.Errorf("fstab %q: %v, fstab after:\n%s", have, err, fstab)
		}
	}
}
