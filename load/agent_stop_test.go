package load

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"benchbed/plan/scenario"
	"benchbed/results"
)

// TestAgentStopLine: a stop line after the job ends an hour-long run
// gracefully: the agent reports done (not an error), every GET the server
// answered is counted, and the done event carries the agent's CPU share.
func TestAgentStopLine(t *testing.T) {
	s, _ := scenario.Parse([]byte(agentScenario))
	f := prefilled(t, s)
	stdin, w := io.Pipe()
	defer w.Close()
	go func() {
		_, _ = io.WriteString(w, agentJob(t, f, "a", func(j *Job) { j.DurationS = 3600 }))
		// The stop once the server has answered a GET, not after a
		// sleep that a loaded machine can outlast before the first.
		for f.count(http.MethodGet) == 0 {
			time.Sleep(time.Millisecond)
		}
		_, _ = io.WriteString(w, `{"type":"nothing"}`+"\n"+StopLine)
	}()
	out, wait := startAgent(context.Background(), stdin)
	var done *results.AgentEvent
	m := results.MergeStreamsEach([]io.Reader{out}, nil, func(_ int, ev results.AgentEvent) {
		if ev.Type == "done" {
			done = &ev
		}
	})
	if err := wait(); err != nil {
		t.Fatalf("a stopped agent failed: %v", err)
	}
	if m.Err != nil || m.Done != 1 || done == nil {
		t.Fatalf("merged: err %v, %d done", m.Err, m.Done)
	}
	gets := m.Recording[OpRead].LastByte.Count()
	if gets == 0 || int(gets) != f.count(http.MethodGet) {
		t.Errorf("merged %d GETs, the server answered %d", gets, f.count(http.MethodGet))
	}
	if done.Duration >= 3600 || m.Duration >= time.Hour {
		t.Errorf("the run was not stopped: %v s", done.Duration)
	}
	if done.ClientCPU == nil || *done.ClientCPU < 0 || *done.ClientCPU > 1 {
		t.Errorf("done event's client CPU %v", done.ClientCPU)
	}
	if m.ClientCPU == nil {
		t.Errorf("the merged streams lack the agents' CPU")
	}
}
