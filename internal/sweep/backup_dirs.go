package sweep

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
// again once it is empty, and keeps it, with the marker, when it is not.
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
// above the files that were absent, each once it is empty but for its
// marker; a directory something else now uses is kept with its marker.
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
		q := remote.Quote(d)
		fmt.Fprintf(&b, "if [ -f %[1]s/%[2]s ]; then rm -f %[1]s/%[2]s; rmdir %[1]s 2>/dev/null || : > %[1]s/%[2]s; fi\n", q, createdDirMarker)
	}
	return b.String()
}
