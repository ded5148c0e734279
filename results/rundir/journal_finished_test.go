package rundir

import "testing"

// TestFinishedSearch: a search step that ended ok finishes its cell, as
// a run does; a probe's entry does not, nor a run that failed.
func TestFinishedSearch(t *testing.T) {
	got := Finished([]Entry{
		{Step: "probe", Cell: "probed", Status: StepOK, Data: map[string]string{"probe": "1"}},
		{Step: "probe", Cell: "searched", Status: StepOK, Data: map[string]string{"probe": "1"}},
		{Step: "search", Cell: "searched", Status: StepOK},
		{Step: "run", Cell: "ran", Status: StepOK},
		{Step: "run", Cell: "failed", Status: StepFailed},
	})
	if len(got) != 2 || !got["searched"] || !got["ran"] {
		t.Errorf("finished %v, want searched and ran", got)
	}
}
