package results

import (
	"testing"
	"time"
)

func secondEvent(t *testing.T, index, n int, lat time.Duration) AgentEvent {
	t.Helper()
	h := NewOpHists()
	for range n {
		h.FirstByte.Record(lat)
	}
	start := time.Unix(1000+int64(index), 0)
	return AgentEvent{Type: "interval", Index: index, Start: start, End: start.Add(time.Second), Ops: Recording{"read": h}}
}

// TestSecondsMergesAgents: an interval is told once both agents have
// reported it, in order, with both agents' operations; an ended agent no
// longer holds the series back.
func TestSecondsMergesAgents(t *testing.T) {
	var got [][2]float64
	s := NewSeconds(2, func(r, p99 float64) { got = append(got, [2]float64{r, p99}) })
	s.Add(0, secondEvent(t, 0, 10, 10*time.Millisecond))
	s.Add(0, secondEvent(t, 1, 10, 10*time.Millisecond))
	if len(got) != 0 {
		t.Fatalf("told %v before the second agent reported", got)
	}
	s.Add(1, secondEvent(t, 0, 30, 40*time.Millisecond))
	if len(got) != 1 || got[0][0] != 40 {
		t.Fatalf("after both agents' first interval: %v, want 40 req/s", got)
	}
	if p := got[0][1]; p < 0.039 || p > 0.041 {
		t.Errorf("p99 %v, want 40 ms", p)
	}
	s.Add(1, AgentEvent{Type: "done"})
	if len(got) != 2 || got[1][0] != 10 {
		t.Fatalf("after the second agent ended: %v", got)
	}
	s.Add(0, secondEvent(t, 1, 5, time.Millisecond)) // an old interval again: ignored
	if len(got) != 2 {
		t.Errorf("an interval told twice: %v", got)
	}
}
