package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Latest is the run reference that names a testbed's newest run.
const Latest = "latest"

// Resolve returns the run that ref names, looked for under root
// (DefaultRoot when root is ""):
//   - an existing directory (a path, or a name in the working directory):
//     that run;
//   - "latest": the newest run of testbed under root/<testbed>/, or with
//     testbed "" the newest run of any testbed;
//   - a run id: root/<testbed>/<id>, or with testbed "" the one run of that
//     id under root/*/.
//
// report, compare, restore and the sweep's --resume all take runs this way.
func Resolve(root, testbed, ref string) (*Run, error) {
	if root == "" {
		root = DefaultRoot
	}
	if ref == "" {
		return nil, errors.New("empty run reference")
	}
	if st, err := os.Stat(ref); err == nil && st.IsDir() {
		return Open(ref, testbed)
	}
	if ref == Latest {
		return LatestRun(root, testbed)
	}
	if dir, ok := findID(root, testbed, ref); ok && !strings.ContainsRune(ref, os.PathSeparator) {
		return Open(dir, testbed)
	}
	where := filepath.Join(root, "*")
	if testbed != "" {
		where = TestbedDir(root, testbed)
	}
	return nil, fmt.Errorf("run %s: no such run directory (nor a run of that id under %s)", ref, where)
}

// findID returns the directory of run id under root/<testbed>/, or under
// root/*/ when testbed is "" and exactly one testbed has a run of that id.
func findID(root, testbed, id string) (string, bool) {
	pattern := filepath.Join(root, "*", id)
	if testbed != "" {
		pattern = filepath.Join(TestbedDir(root, testbed), id)
	}
	m, _ := filepath.Glob(pattern)
	if len(m) != 1 {
		return "", false
	}
	if st, err := os.Stat(m[0]); err != nil || !st.IsDir() {
		return "", false
	}
	return m[0], true
}

// isRunID reports whether name is a run id ("<UTC time>-<id>"), so that other
// directories beside the runs (prefill checkpoints) are never taken for one.
func isRunID(name string) bool {
	if len(name) <= len(runTimeLayout) || name[len(runTimeLayout)] != '-' {
		return false
	}
	_, err := time.Parse(runTimeLayout, name[:len(runTimeLayout)])
	return err == nil
}

// LatestRun returns the newest run of testbed under root, by its id; with
// testbed "" the newest run of any testbed.
func LatestRun(root, testbed string) (*Run, error) {
	pattern := filepath.Join(TestbedDir(root, testbed), "*")
	if testbed == "" {
		pattern = filepath.Join(root, "*", "*")
	}
	dirs, _ := filepath.Glob(pattern)
	var last string
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() && isRunID(filepath.Base(d)) &&
			(last == "" || filepath.Base(d) > filepath.Base(last)) {
			last = d
		}
	}
	if last == "" {
		what := "no run of " + testbed
		if testbed == "" {
			what = "no run"
		}
		return nil, errors.New(what + " under " + root)
	}
	return Open(last, testbed)
}
