package labkit

import "testing"

// TestEdit: edits apply in order, a later one seeing an earlier one's
// result; one that matches nothing is an error naming it.
func TestEdit(t *testing.T) {
	got, err := Edit("duration = \"20s\"\nwarmup = \"5s\"\n", [][2]string{
		{`(?m)^(duration = )"20s"`, `${1}"5s"`},
		{`"5s"`, `"1s"`},
	})
	if err != nil || got != "duration = \"1s\"\nwarmup = \"1s\"\n" {
		t.Fatalf("Edit: %q, %v", got, err)
	}
	if _, err := Edit("x", [][2]string{{`y+`, `z`}}); err == nil || err.Error() != "no match for y+: the test's edit needs updating" {
		t.Errorf("an edit matching nothing: %v", err)
	}
}
