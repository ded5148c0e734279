package results

import (
	"fmt"
	"io"
)

// RepeatStop is why a repeat = "auto" workload's repeats of a variant
// ended, against the baseline (the first variant the sweep ran):
// summary.json's repeat_auto (docs/results.md).
type RepeatStop struct {
	Workload string `json:"workload"`
	Baseline string `json:"baseline"`
	Variant  string `json:"variant"`
	// Repeats is the repeats that ran of each of the two (the fewer);
	// Measured, of those, the ones that finished (the test's samples).
	Repeats  int `json:"repeats"`
	Measured int `json:"measured"`
	// Kind is "separated", "no-difference", "max" or "alone" (a single
	// variant ran: nothing to compare); Stopped says it for people:
	// "separated at p=0.0286 after 4 repeats (...)".
	Kind    string  `json:"kind"`
	Stopped string  `json:"stopped"`
	P       float64 `json:"p,omitempty"`     // the U test's p-value
	Power   float64 `json:"power,omitempty"` // its power to find a change of min_effect
}

// WriteRepeatStops writes one line per repeat = "auto" pair: what
// stopped its repeats.
func WriteRepeatStops(w io.Writer, stops []RepeatStop) error {
	for _, st := range stops {
		var err error
		if st.Kind == "alone" {
			_, err = fmt.Fprintf(w, "repeat auto, %s: %s\n", st.Workload, st.Stopped)
		} else {
			_, err = fmt.Fprintf(w, "repeat auto, %s: %s against %s: %s\n", st.Workload, st.Variant, st.Baseline, st.Stopped)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
