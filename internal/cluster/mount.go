package cluster

import (
	"cmp"
	"fmt"
	"strings"

	"benchbed/plan"
	"benchbed/remote"
)

// mountScript mounts disk d's device on p with Swift's options and an
// /etc/fstab line (nofail: a host with a dead disk still boots, and
// mount_check keeps Swift off the empty directory), formatting it first
// when the testbed allows: format = true formats a device that holds no
// filesystem; a device holding the filesystem setup makes (the declared
// type, labelled with the disk's name) is mounted as it is; any other is
// refused unless format = "force". A device mounted elsewhere, or a mount
// point holding another device, is an error. Without format, the device
// must hold a filesystem (the declared one, when declared).
func mountScript(d plan.Disk, p string) string { return mountScriptAt(d, p, "/etc/fstab") }

// mountScriptAt is mountScript with fstab at another path (for tests).
func mountScriptAt(d plan.Disk, p, fstab string) string {
	r := strings.NewReplacer("@DEV@", remote.Quote(d.Device), "@P@", remote.Quote(p), "@NAME@", d.Name,
		"@DECIDE@", formatDecision(d), "/etc/fstab", fstab)
	return r.Replace(mountTemplate)
}

// mountTemplate: @DEV@ and @P@ quoted, @NAME@ the disk's name, @DECIDE@
// what to do with what the device holds ($have, $label).
const mountTemplate = `dev=@DEV@; p=@P@
if mountpoint -q "$p"; then
  [ "$(mountpoint -d "$p")" = "$(stat -L -c '%Hr:%Lr' "$dev" 2>/dev/null)" ] ||
    { echo "@NAME@: $p has $(findmnt -n -o SOURCE "$p") mounted, not $dev" >&2; exit 1; }
else
  [ "$(stat -L -c %F "$dev" 2>/dev/null)" = "block special file" ] || { echo "@NAME@: $dev is not a block device" >&2; exit 1; }
  at=$(findmnt -n -o TARGET --source "$dev" 2>/dev/null | head -n 1)
  [ -z "$at" ] || { echo "@NAME@: $dev is mounted at $at, not $p" >&2; exit 1; }
  have=$(blkid -p -o value -s TYPE "$dev" 2>/dev/null || true)
  label=$(blkid -p -o value -s LABEL "$dev" 2>/dev/null || true)
  @DECIDE@
  mkdir -p "$p"
  mount -t "$have" -o "$(swift_mount_options "$have")" "$dev" "$p"
  echo "mounted $dev ($have) on $p"
fi
if ! awk -v p="$p" '$1 !~ /^#/ && $2 == p { f = 1 } END { exit !f }' /etc/fstab 2>/dev/null; then
  t=$(findmnt -n -o FSTYPE "$p")
  printf '%s\n' "$dev $p $t $(swift_mount_options "$t"),nofail 0 0" >> /etc/fstab
  echo "added $p to /etc/fstab"
fi
`

// mountFunctions defines swift_mount_options for the disks' scripts:
// Swift's recommended mount options for a filesystem type.
const mountFunctions = `swift_mount_options() { case $1 in xfs) echo noatime,nodiratime,logbufs=8 ;; *) echo noatime,nodiratime ;; esac; }
`

// formatDecision is the part of mountScript that decides from $have and
// $label whether to format, mount as is, or refuse.
func formatDecision(d plan.Disk) string {
	fs := cmp.Or(d.Filesystem, "xfs")
	if !d.Format {
		check := ""
		if d.Filesystem != "" {
			check = fmt.Sprintf(`; [ "$have" = %[1]s ] || { echo "%[2]s: $dev holds $have, the testbed says %[1]s" >&2; exit 1; }`, fs, d.Name)
		}
		return fmt.Sprintf(`[ -n "$have" ] || { echo "%s: $dev holds no filesystem and format is not set" >&2; exit 1; }%s`, d.Name, check)
	}
	opt := "-q -f"
	if fs == "ext4" {
		opt = "-q -F"
	}
	mkfs := fmt.Sprintf(`mkfs.%[1]s %[2]s -L %[3]s "$dev" >/dev/null; have=%[1]s`, fs, opt, remote.Quote(d.Name))
	foreign := fmt.Sprintf(`echo "%[1]s: $dev holds ${have} (label '$label'), not the %[2]s labelled %[1]s that setup makes; not formatting it (format = \"force\" would)" >&2; exit 1`, d.Name, fs)
	if d.Force {
		foreign = fmt.Sprintf(`%s; echo "formatted $dev as %s (it held ${have_was}, format = \"force\")"`, mkfs, fs)
		foreign = `have_was="$have label '$label'"; ` + foreign
	}
	return fmt.Sprintf(`if [ -z "$have" ]; then %[1]s; echo "formatted $dev as %[2]s (label %[3]s)"
  elif [ "$have" = %[2]s ] && [ "$label" = %[4]s ]; then :
  else %[5]s
  fi`, mkfs, fs, d.Name, remote.Quote(d.Name), foreign)
}
