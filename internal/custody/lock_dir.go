package custody

import (
	"context"
	"fmt"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/remote"
)

// LockParent is the directory that holds a host's sweep lock: benchbed's
// own (root's, or the connecting user's without become), mode 0700, the
// same directory as the agents' binary (remote.DefaultBinaryDir). Every
// lock script checks it before it reads or writes the lock.
const LockParent = remote.DefaultBinaryDir

// LockDir is the directory whose creation takes a host's sweep lock.
const LockDir = LockParent + "/sweep.lock"

// oldLockDir is where runs of earlier versions took the lock (mkdir in
// world-writable /var/tmp). A sweep no longer takes it; unlock and the
// restore still release a run's lock there.
const oldLockDir = "/var/tmp/benchbed-sweep.lock"

// lockPrelude makes LockParent if absent, and stops the script with
// "unsafe <ls -ld>" unless it is a directory (not a symlink) owned by the
// user the script runs as; it then makes it 0700.
const lockPrelude = `d=` + LockParent + `
mkdir -m 700 "$d" 2>/dev/null
if [ -L "$d" ] || [ ! -d "$d" ] || [ "$(stat -c %u "$d")" != "$(id -u)" ]; then echo "unsafe $(ls -ld "$d" 2>&1)"; exit 0; fi
chmod 700 "$d" || exit 1
`

// runLock runs a lock script on host after lockPrelude, and refuses, naming
// host and path, when the lock's directory is not benchbed's own.
func runLock(ctx context.Context, r cluster.Runner, host, script string) (string, error) {
	res, err := r.Run(ctx, host, lockPrelude+script)
	if err != nil {
		return "", fmt.Errorf("%s: sweep lock in %s: %w", host, LockParent, err)
	}
	out := strings.TrimSpace(string(res.Stdout))
	if ls, ok := strings.CutPrefix(out, "unsafe "); ok {
		return "", fmt.Errorf("%s: %s is not benchbed's own directory (a symlink, not a directory, or another user's: %s); "+
			"the sweep lock is not trusted there: remove it", host, LockParent, ls)
	}
	return out, nil
}
