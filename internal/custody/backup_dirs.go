package custody

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"benchbed/remote"
	"benchbed/results/rundir"
)

// createdDirMarker, in a directory, says the sweep's backup created it (a
// conf's directory that did not exist): the restore removes the directory
// again, with what the sweep's daemons left in it, but only when the
// directory and its marker are the restoring user's (a marker planted by
// another user, in a directory others may write, removes nothing).
const createdDirMarker = ".benchbed-sweep-created-dir"

// parentDirs are the directories above file p, top down, "/" excluded.
func parentDirs(p string) []string {
	var out []string
	for d := path.Dir(path.Clean(p)); d != "/" && d != "."; d = path.Dir(d) {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// mkdirsScript creates the missing directories above p (so that its backup
// can be marked absent next to it), each with createdDirMarker; under the
// backup's set -e a mkdir that fails stops the script.
func mkdirsScript(p string) string {
	var b strings.Builder
	for _, d := range parentDirs(p) {
		q := remote.Quote(d)
		fmt.Fprintf(&b, "if [ ! -e %[1]s ]; then mkdir %[1]s; : > %[1]s/%[2]s; fi\n", q, createdDirMarker)
	}
	return b.String()
}

// rmdirsScript removes, deepest first, the directories the backup created
// above the files that were absent (see createdDirMarker).
func rmdirsScript(files []rundir.Original) string {
	var dirs []string
	for _, f := range files {
		if f.Absent {
			for _, d := range parentDirs(f.Path) {
				if !slices.Contains(dirs, d) {
					dirs = append(dirs, d)
				}
			}
		}
	}
	slices.SortStableFunc(dirs, func(a, b string) int { return cmp.Compare(strings.Count(b, "/"), strings.Count(a, "/")) })
	var b strings.Builder
	for _, d := range dirs {
		q, m := remote.Quote(d), remote.Quote(d+"/"+createdDirMarker)
		fmt.Fprintf(&b, "if [ -d %[1]s ] && [ ! -L %[1]s ] && [ -f %[2]s ] && [ ! -L %[2]s ] && "+
			"[ \"$(stat -c %%u %[1]s %[2]s | sort -u)\" = \"$(id -u)\" ]; then rm -rf %[1]s; fi\n", q, m)
	}
	return b.String()
}
