package compare

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"benchbed/results/rundir"
	"benchbed/templates"
	"benchbed/templates/secrets"
)

// maxTestbedLines bounds the changed lines shown of two testbeds.
const maxTestbedLines = 60

// testbedDiff returns the changed lines of two runs' testbed.hcl, masked;
// nil when they are the same or neither run kept one.
func testbedDiff(dirA, dirB string) ([]string, error) {
	a, errA := os.ReadFile(filepath.Join(dirA, rundir.TestbedFile))
	b, errB := os.ReadFile(filepath.Join(dirB, rundir.TestbedFile))
	for _, err := range []error{errA, errB} {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	switch {
	case errA != nil && errB != nil:
		return nil, nil
	case errA != nil || errB != nil:
		return nil, fmt.Errorf("only one run kept its %s (%v)", rundir.TestbedFile, errors.Join(errA, errB))
	case string(a) == string(b):
		return nil, nil
	}
	lines := changedLines(templates.Unified("A", "B", secrets.HCL(string(a)), secrets.HCL(string(b))))
	if len(lines) == 0 {
		return []string{"# only masked values differ"}, nil
	}
	if n := len(lines); n > maxTestbedLines {
		lines = append(lines[:maxTestbedLines], fmt.Sprintf("# ... %d more changed lines", n-maxTestbedLines))
	}
	return lines, nil
}
