package telemetry

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// FS is where a host's /proc and /sys are (tests point them at fixtures).
type FS struct {
	Proc string // "/proc"
	Sys  string // "/sys"
}

// HostFS is this host's /proc and /sys.
var HostFS = FS{Proc: "/proc", Sys: "/sys"}

// ResolveDisk returns the /proc/diskstats name of a testbed disk: path is
// a block device (its own name, loop devices and partitions included) or
// a directory (the device of the file system it is on, found through
// /proc/self/mountinfo; a directory on the root file system resolves to
// the root's device).
func (fs FS) ResolveDisk(path string) (string, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode()&os.ModeDevice != 0 && fi.Mode()&os.ModeCharDevice == 0 {
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return "", fmt.Errorf("%s: no device number", path)
		}
		return fs.blockName(devMajor(st.Rdev), devMinor(st.Rdev))
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	info, err := os.ReadFile(filepath.Join(fs.Proc, "self", "mountinfo"))
	if err != nil {
		return "", err
	}
	m, err := MountOf(info, path)
	if err != nil {
		return "", err
	}
	if name, err := fs.blockName(m.Major, m.Minor); err == nil {
		return name, nil
	}
	if strings.HasPrefix(m.Source, "/dev/") && m.Source != path { // btrfs and others: an anonymous device number
		if name, err := fs.ResolveDisk(m.Source); err == nil {
			return name, nil
		}
	}
	return "", fmt.Errorf("%s: on %s %s (%s, %d:%d), which is no block device", path, m.Type, m.Point, m.Source, m.Major, m.Minor)
}

// blockName is the kernel's name of block device major:minor, from the
// /sys/dev/block link (a partition's link ends in its own name).
func (fs FS) blockName(major, minor uint32) (string, error) {
	l, err := os.Readlink(filepath.Join(fs.Sys, "dev", "block", fmt.Sprintf("%d:%d", major, minor)))
	if err != nil {
		return "", err
	}
	return filepath.Base(l), nil
}

// Mount is one line of /proc/self/mountinfo.
type Mount struct {
	Point        string
	Major, Minor uint32
	Type, Source string
}

// MountOf returns the mount path is on: the last mounted of those whose
// mount point is the longest prefix of path (a later mount hides an
// earlier one at the same point).
func MountOf(mountinfo []byte, path string) (Mount, error) {
	var best Mount
	found := false
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		m, err := parseMount(sc.Text())
		if err != nil {
			return Mount{}, err
		}
		if under(path, m.Point) && (!found || len(m.Point) >= len(best.Point)) {
			best, found = m, true
		}
	}
	if !found {
		return Mount{}, fmt.Errorf("%s: no mount in mountinfo", path)
	}
	return best, nil
}

// under says whether path is dir or below it.
func under(path, dir string) bool {
	return dir == "/" || path == dir || strings.HasPrefix(path, dir+"/")
}

// parseMount reads "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw".
func parseMount(line string) (Mount, error) {
	pre, post, ok := strings.Cut(line, " - ")
	f, g := strings.Fields(pre), strings.Fields(post)
	if !ok || len(f) < 5 || len(g) < 2 {
		return Mount{}, fmt.Errorf("mountinfo: bad line %q", line)
	}
	maj, min, ok := strings.Cut(f[2], ":")
	a, err1 := strconv.ParseUint(maj, 10, 32)
	b, err2 := strconv.ParseUint(min, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return Mount{}, errors.Join(fmt.Errorf("mountinfo: bad device %q", f[2]), err1, err2)
	}
	return Mount{Point: unescape(f[4]), Major: uint32(a), Minor: uint32(b), Type: g[0], Source: unescape(g[1])}, nil
}

// unescape decodes mountinfo's octal escapes (\040 is a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// devMajor and devMinor split a Linux dev_t (glibc's encoding).
func devMajor(dev uint64) uint32 { return uint32((dev>>8)&0xfff | (dev>>32)&^0xfff) }
func devMinor(dev uint64) uint32 { return uint32(dev&0xff | (dev>>12)&^0xff) }
