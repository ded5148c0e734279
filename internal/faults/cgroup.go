package faults

import "fmt"

// cgroupKind is a cgroup controller a fault moves a service's processes
// under: its v1 hierarchy's name and, on a cgroup v2 host, the controller
// to enable ("" when none is needed, as for the freezer).
type cgroupKind struct {
	v1, v2 string
	// v1Limit and v2Limit are the shell that sets the limit in "$cg".
	v1Limit, v2Limit string
	// after says whether the limit is set once the processes are in
	// (the freezer freezes what it holds) rather than before.
	after bool
}

// cgroupFreezer freezes the processes it holds.
var cgroupFreezer = cgroupKind{v1: "freezer", v1Limit: `echo FROZEN > "$cg/freezer.state"`,
	v2Limit: `echo 1 > "$cg/cgroup.freeze"`, after: true}

// cgroupDirs lists every cgroup any fault of id may have made, for undo and check.
const cgroupDirs = `/sys/fs/cgroup/blkio/benchbed-$id /sys/fs/cgroup/freezer/benchbed-$id /sys/fs/cgroup/benchbed-$id`

// probe fails unless the host has a writable hierarchy for k.
func (k cgroupKind) probe(kind string) string {
	return k.selectScript(kind)
}

// selectScript sets root, v (1 or 2) and cg, or fails naming the mechanism.
func (k cgroupKind) selectScript(kind string) string {
	v2 := `[ -f /sys/fs/cgroup/cgroup.controllers ] && [ -w /sys/fs/cgroup/cgroup.procs ]`
	if k.v2 != "" {
		v2 += fmt.Sprintf(" && grep -qw %s /sys/fs/cgroup/cgroup.controllers", k.v2)
	}
	return fmt.Sprintf(`if [ -d /sys/fs/cgroup/%[1]s ] && [ -w /sys/fs/cgroup/%[1]s/cgroup.procs ]; then root=/sys/fs/cgroup/%[1]s; v=1
elif %[2]s; then root=/sys/fs/cgroup; v=2
else %[3]s
fi
cg=$root/benchbed-$id
`, k.v1, v2, fail(kind, "no writable cgroup v1 "+k.v1+" hierarchy and no cgroup v2 "+or(k.v2, "root")+" to move the processes into"))
}

// create makes the cgroup (enabling the v2 controller in the root).
func (k cgroupKind) create() string {
	s := k.selectScript("cgroup") + "[ ! -d \"$cg\" ] || { " + fail("cgroup", "$cg is left by an earlier fault: undo it first") + "; }\nmkdir -p \"$cg\"\n"
	if k.v2 != "" {
		s += fmt.Sprintf("[ \"$v\" = 1 ] || echo +%s > \"$root/cgroup.subtree_control\"\n", k.v2)
	}
	if !k.after {
		s += k.limitScript()
	}
	return s
}

// limitScript sets the limit in the version found.
func (k cgroupKind) limitScript() string {
	return fmt.Sprintf("if [ \"$v\" = 1 ]; then\n%s\nelse\n%s\nfi\n", k.v1Limit, k.v2Limit)
}

// move moves every process of pids into "$cg", keeping where each was in
// "$state.procs", then sets a limit that applies to what the cgroup holds.
func (k cgroupKind) move() string {
	field := fmt.Sprintf(`$2 ~ /(^|,)%s(,|$)/`, k.v1)
	s := fmt.Sprintf(`: > "$state.procs"
for p in $(pids); do
  if [ "$v" = 1 ]; then o=$(awk -F: '%s {print $3}' /proc/$p/cgroup); else o=$(awk -F: '$1 == "0" {print $3}' /proc/$p/cgroup); fi
  echo "$p $o" >> "$state.procs"
  echo "$p" > "$cg/cgroup.procs"
done
`, field)
	if k.after {
		s += k.limitScript()
	}
	return s
}

// undo lifts every limit of the fault's cgroups, moves their processes
// back where they were (the root when that is gone) and removes them.
func (k cgroupKind) undo() string {
	return `for cg in ` + cgroupDirs + `; do
  [ -d "$cg" ] || continue
  root=${cg%/benchbed-*}
  [ -f "$cg/freezer.state" ] && echo THAWED > "$cg/freezer.state"
  [ -f "$cg/cgroup.freeze" ] && echo 0 > "$cg/cgroup.freeze"
  for f in "$cg"/blkio.throttle.*_device; do
    [ -f "$f" ] || continue
    l=$(cat "$f"); echo "$l" | while read -r mm _; do [ -z "$mm" ] || echo "$mm 0" > "$f"; done
  done
  if [ -f "$cg/io.max" ]; then
    l=$(cat "$cg/io.max"); echo "$l" | while read -r mm _; do [ -z "$mm" ] || echo "$mm rbps=max wbps=max riops=max wiops=max" > "$cg/io.max"; done
  fi
  for try in 1 2 3 4 5 6 7 8 9 10; do
    for p in $(cat "$cg/cgroup.procs"); do
      o=$(awk -v p="$p" '$1 == p {print $2}' "$state.procs" 2>/dev/null)
      { [ -n "$o" ] && [ -d "$root$o" ] && echo "$p" > "$root$o/cgroup.procs"; } 2>/dev/null || echo "$p" > "$root/cgroup.procs"
    done
    rmdir "$cg" 2>/dev/null && break
    sleep 0.2
  done
  [ ! -d "$cg" ] || { ` + fail("cgroup", "cannot remove $cg: it still holds processes") + `; }
done
rm -f "$state.procs"
`
}

// check fails while any cgroup of the fault is left.
func (k cgroupKind) check(kind string) string {
	return `for cg in ` + cgroupDirs + `; do
  [ ! -d "$cg" ] || { ` + fail(kind, "cgroup $cg is left") + `; }
done
`
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
