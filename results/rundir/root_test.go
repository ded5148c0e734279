package rundir

import (
	"testing"

	"benchbed/plan"
)

// TestDefaultRootIsTheTestbedsDefault: a command that reads no testbed
// looks for runs where a testbed without sweep.runs_dir puts them.
func TestDefaultRootIsTheTestbedsDefault(t *testing.T) {
	if DefaultRoot != plan.DefaultRunsDir {
		t.Fatalf("rundir.DefaultRoot %q, plan.DefaultRunsDir %q: one default root", DefaultRoot, plan.DefaultRunsDir)
	}
}
