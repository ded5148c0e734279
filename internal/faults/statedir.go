package faults

import (
	"fmt"

	"benchbed/remote"
)

// StateParent is benchbed's own directory on a host (the agents' binary
// and the sweep lock are there too): root's, or the connecting user's,
// mode 0700.
const StateParent = remote.DefaultBinaryDir

// StateDir is where a fault keeps, on its host, what its undo needs: under
// StateParent, so that no other user can plant or read its files.
const StateDir = StateParent + "/faults"

// OldStateDir is where earlier versions kept a fault's state (made by
// mkdir -p in /var/tmp, unchecked). No fault is applied there any more;
// undo and check still use a fault's files there, when that directory is
// the script user's own, so that `benchbed restore` undoes a fault an
// earlier version recorded.
const OldStateDir = "/var/tmp/benchbed-faults"

// statePrelude is the shell that makes parent and dir (0700) when absent
// and exits 1, naming the host and the path, unless each is a directory,
// not a symlink, owned by the user the script runs as; it then sets
// state to dir/$id. With old (undo and check), state is old/$id instead
// when a file of the fault is there and old is the user's own directory.
func statePrelude(parent, dir, old string) string {
	s := fmt.Sprintf(`for d in %s %s; do
  mkdir -m 700 "$d" 2>/dev/null
  if [ -L "$d" ] || [ ! -d "$d" ] || [ "$(stat -c %%u "$d")" != "$(id -u)" ]; then
    echo "$host: fault state: $d is not benchbed's own directory (a symlink, not a directory, or another user's: $(ls -ld "$d" 2>&1)); remove it" >&2; exit 1
  fi
  chmod 700 "$d" || exit 1
done
state=%s/$id
`, remote.Quote(parent), remote.Quote(dir), remote.Quote(dir))
	if old == "" {
		return s
	}
	o := remote.Quote(old)
	return s + fmt.Sprintf(`if [ -d %[1]s ] && [ ! -L %[1]s ] && [ "$(stat -c %%u %[1]s)" = "$(id -u)" ]; then
  for f in %[1]s/"$id" %[1]s/"$id".*; do [ ! -e "$f" ] || state=%[1]s/$id; done
fi
`, o)
}
