package results

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestMergeStreamsReportsBrokenStreams(t *testing.T) {
	m := MergeStreams([]io.Reader{strings.NewReader("not json\n"), strings.NewReader(`{"type":"progress"}` + "\n")}, nil)
	if m.Err == nil || !strings.Contains(m.Err.Error(), "line 1") || !strings.Contains(m.Err.Error(), "before the agent reported done") {
		t.Fatalf("err = %v", m.Err)
	}
}

// TestLiveRateIgnoresTheEndStub: the short interval that ends a run holds
// the users' last requests; its rate is no live throughput.
func TestLiveRateIgnoresTheEndStub(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var lines strings.Builder
	w := NewLineWriter(&lines)
	rec := func(n int) Recording {
		h := NewOpHists()
		for range n {
			h.FirstByte.Record(time.Millisecond)
			h.LastByte.Record(time.Millisecond)
		}
		return Recording{"GET": h}
	}
	w.Put(AgentEvent{Type: "interval", Index: 0, Start: t0, End: t0.Add(time.Second), Ops: rec(100)})
	w.Put(AgentEvent{Type: "interval", Index: 1, Start: t0.Add(time.Second), End: t0.Add(1020 * time.Millisecond), Ops: rec(30)})
	w.Put(AgentEvent{Type: "done", Duration: 1.02})
	var lives []Live
	m := MergeStreams([]io.Reader{strings.NewReader(lines.String())}, func(l Live) { lives = append(lives, l) })
	if m.Err != nil || len(lives) != 2 {
		t.Fatalf("err %v, %d live figures", m.Err, len(lives))
	}
	if lives[0].ReqPerS != 100 || lives[1].ReqPerS != 100 || lives[1].Done != 130 {
		t.Errorf("live figures %+v; want 100 req/s both times (not 1,500 from 30 in 20 ms) and 130 done", lives)
	}
}
