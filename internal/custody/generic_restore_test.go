package custody

import (
	"maps"
	"testing"
	"time"

	"benchbed/results/rundir"
)

func TestGenericStateRoundTrip(t *testing.T) {
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readGenericState(run); err != nil || len(got) != 0 {
		t.Fatalf("a run without generic services: %v, %v", got, err)
	}
	want := map[string]bool{"proxy1/nginx": false, "proxy1/iperf3": true}
	if err := WriteGenericState(run, want); err != nil {
		t.Fatal(err)
	}
	if got, err := readGenericState(run); err != nil || !maps.Equal(got, want) {
		t.Fatalf("read back %v, %v; want %v", got, err, want)
	}
}
