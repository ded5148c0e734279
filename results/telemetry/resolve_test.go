package telemetry

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestMountOf(t *testing.T) {
	info := strings.Join([]string{
		"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw",
		"40 27 7:3 / /srv/node/d1 rw,noatime - xfs /dev/loop3 rw",
		"41 27 254:1 / /srv/node/d1 rw - xfs /dev/vda1 rw", // mounted over the first
		"42 27 0:40 / /srv/node/tmp rw - tmpfs tmpfs rw",
		`43 27 8:17 / /mnt/my\040disk rw - ext4 /dev/sdb1 rw`,
		"44 27 254:0 /var/lib/lab/hosts/stor1/srv /srv rw - ext4 /dev/vda rw", // a lab host's bind mount
	}, "\n")
	for path, want := range map[string]string{
		"/srv/node/d1":         "254:1 /srv/node/d1",
		"/srv/node/d1/objects": "254:1 /srv/node/d1",
		"/srv/node/d10":        "254:0 /srv",
		"/mnt/my disk/x":       "8:17 /mnt/my disk",
		"/etc":                 "254:0 /",
	} {
		m, err := MountOf([]byte(info), path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := fmt.Sprintf("%d:%d %s", m.Major, m.Minor, m.Point); got != want {
			t.Errorf("%s: on %s, want %s", path, got, want)
		}
	}
	if _, err := MountOf([]byte("bad line"), "/"); err == nil {
		t.Error("bad mountinfo: no error")
	}
}

func TestResolveDiskFixture(t *testing.T) {
	fs, _ := snap(t, 1)
	// Every block device of the fixture machine resolves to its own name.
	b, _ := os.ReadFile(filepath.Join("testdata", "sys-dev-block.txt"))
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		dev, target, _ := strings.Cut(line, " ")
		var maj, min uint32
		if _, err := fmt.Sscanf(dev, "%d:%d", &maj, &min); err != nil {
			t.Fatal(err)
		}
		if got, err := fs.blockName(maj, min); err != nil || got != filepath.Base(target) {
			t.Errorf("%s: %q, %v; want %s", dev, got, err, filepath.Base(target))
		}
	}
	// A partition's link ends in the partition's name.
	part := filepath.Join(fs.Sys, "dev", "block", "254:1")
	if err := os.Symlink("../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1", part); err != nil {
		t.Fatal(err)
	}
	if got, err := fs.blockName(254, 1); err != nil || got != "vda1" {
		t.Errorf("partition: %q, %v; want vda1", got, err)
	}
	// /proc is no block device: the error names the path and the file system.
	if _, err := fs.ResolveDisk("/proc"); err == nil || !strings.Contains(err.Error(), "/proc: on proc") {
		t.Errorf("ResolveDisk(/proc): %v, want an error naming /proc and its file system", err)
	}
}

// TestResolveDiskHost checks resolution on this machine against stat(2):
// a directory resolves to the device it is on, a block device to itself.
func TestResolveDiskHost(t *testing.T) {
	dir := t.TempDir()
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	want, err := HostFS.blockName(devMajor(st.Dev), devMinor(st.Dev))
	if err != nil {
		t.Skipf("%s is on no block device here (%d:%d)", dir, devMajor(st.Dev), devMinor(st.Dev))
	}
	if got, err := HostFS.ResolveDisk(dir); err != nil || got != want {
		t.Errorf("ResolveDisk(%s) = %q, %v; want %s", dir, got, err, want)
	}
	if _, err := os.Stat("/dev/" + want); err != nil {
		t.Skipf("no /dev/%s here", want)
	}
	if got, err := HostFS.ResolveDisk("/dev/" + want); err != nil || got != want {
		t.Errorf("ResolveDisk(/dev/%s) = %q, %v; want %s", want, got, err, want)
	}
}
