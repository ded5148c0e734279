package main

import (
	"fmt"
	"strings"

	"benchbed/plan"
)

// refuseAuto refuses a testbed whose workloads ask for what the sweep
// does not run yet: repeat = "auto" (compare.NextRepeat decides it, but
// the sweep runs a fixed number of repeats). Search blocks, duration and
// warmup "auto" and thresholds pass.
func refuseAuto(tb *plan.Testbed) error {
	var bad []string
	for _, w := range tb.Workloads {
		if w.AutoRepeat != nil {
			bad = append(bad, fmt.Sprintf("workload %q (at %s)", w.Name, w.DefRange))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("the sweep does not run repeat = \"auto\" yet: %s; give a number of repeats", strings.Join(bad, "; "))
}
