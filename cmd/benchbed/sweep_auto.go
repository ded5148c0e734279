package main

import (
	"fmt"
	"strings"

	"benchbed/plan"
)

// refuseAuto refuses a testbed whose workloads ask for what the sweep
// does not run yet: a search block, duration or repeat "auto" and a
// workload's own warmup (`benchbed load` runs the first three from this
// machine). Threshold blocks are compare's and pass.
func refuseAuto(tb *plan.Testbed) error {
	var bad []string
	for _, w := range tb.Workloads {
		var what []string
		if w.Search != nil {
			what = append(what, "a search block")
		}
		if w.AutoDuration != nil {
			what = append(what, "duration \"auto\"")
		}
		if w.AutoRepeat != nil {
			what = append(what, "repeat \"auto\"")
		}
		if w.Warmup != nil {
			what = append(what, "its own warmup")
		}
		if len(what) > 0 {
			bad = append(bad, fmt.Sprintf("workload %q (%s, at %s)", w.Name, strings.Join(what, ", "), w.DefRange))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("the sweep does not run capacity searches or auto runs yet: %s; "+
		"`benchbed load --search/--duration auto/--warmup auto` does from this machine", strings.Join(bad, "; "))
}
