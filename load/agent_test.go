package load

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"benchbed/plan/scenario"
	"benchbed/results"
)

const agentScenario = `{"name": "g", "crud_profile": [0, 1, 0, 0], "run_seconds": 1, "container_count": 7,
  "sizes": [{"name": "tiny", "size_min": 10, "size_max": 100}, {"name": "small", "size_min": 1000, "size_max": 2000}],
  "initial_files": {"tiny": 13, "small": 5}}`

// agentEpoch is the agents' clock in this package's tests (agentClock):
// the jobs are stamped with it, so that the agents' checks of their clock
// and start see no delay, however long a loaded machine took between
// writing a job and its agent reading it; their start, in the past by the
// real clock once the test has run 50 ms, is then at once.
var agentEpoch = time.Now()

// agentClock is the clock of this package's test agents: agentEpoch.
func agentClock() time.Time { return agentEpoch }

func agentJob(t *testing.T, f *fakeSwift, name string, mutate func(*Job)) string {
	t.Helper()
	now := agentClock()
	j := Job{Agent: name, Scenario: json.RawMessage(agentScenario), Users: 2, DurationS: 0.5,
		Auth:    AuthSpec{URL: f.URL + "/auth/v1.0", User: "test:tester", Key: "testing"},
		StartAt: now.Add(50 * time.Millisecond), Clock: now}
	if mutate != nil {
		mutate(&j)
	}
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// startAgent runs an agent on job and returns its stdout and a function
// that waits for it.
func startAgent(ctx context.Context, stdin io.Reader) (io.Reader, func() error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := RunAgentClock(ctx, stdin, pw, nil, agentClock)
		_ = pw.Close()
		done <- err
	}()
	return pr, func() error { return <-done }
}

func TestTwoAgentsMerged(t *testing.T) {
	s, _ := scenario.Parse([]byte(agentScenario))
	f := prefilled(t, s)
	var outs []io.Reader
	var waits []func() error
	for _, name := range []string{"a1", "a2"} {
		stdin, keep := io.Pipe() // stays open for the whole run
		defer keep.Close()
		go func() { _, _ = io.WriteString(keep, agentJob(t, f, name, nil)) }()
		out, wait := startAgent(context.Background(), stdin)
		outs, waits = append(outs, out), append(waits, wait)
	}
	var lives []results.Live
	m := results.MergeStreams(outs, func(l results.Live) { lives = append(lives, l) })
	for _, w := range waits {
		if err := w(); err != nil {
			t.Fatalf("agent: %v", err)
		}
	}
	if m.Err != nil || m.Done != 2 {
		t.Fatalf("merged: err %v, %d done", m.Err, m.Done)
	}
	gets := m.Recording[OpRead].LastByte.Count()
	var per int64
	for _, n := range m.PerSecond {
		per += n
	}
	if gets == 0 || int(gets) != f.count(http.MethodGet) || per != gets {
		t.Fatalf("merged %d GETs (%d by interval), the server saw %d", gets, per, f.count(http.MethodGet))
	}
	last := lives[len(lives)-1]
	if last.Agents != 2 || last.Done != gets || m.Duration < 400*time.Millisecond {
		t.Errorf("last live %+v, duration %v", last, m.Duration)
	}
}

func TestAgentRefusesSkewAndLateStart(t *testing.T) {
	f := newFakeSwift(t)
	for name, mut := range map[string]func(*Job){
		"skew": func(j *Job) { j.Clock = j.Clock.Add(-time.Second) },
		"late": func(j *Job) { j.StartAt = agentClock().Add(-time.Second) },
	} {
		var out strings.Builder
		err := RunAgentClock(context.Background(), strings.NewReader(agentJob(t, f, name, mut)), &out, nil, agentClock)
		if err == nil || !strings.Contains(out.String(), `"type":"error"`) || !strings.Contains(err.Error(), "refusing") {
			t.Errorf("%s: err %v, out %s", name, err, out.String())
		}
		if strings.Contains(out.String(), "testing") {
			t.Errorf("%s: the output shows the key: %s", name, out.String())
		}
	}
	if f.count(http.MethodGet) != 0 || f.tokens != 0 {
		t.Errorf("a refused job made requests")
	}
}

func TestAgentStopsWhenStdinCloses(t *testing.T) {
	s, _ := scenario.Parse([]byte(agentScenario))
	f := prefilled(t, s)
	stdin, w := io.Pipe()
	go func() { _, _ = io.WriteString(w, agentJob(t, f, "a", func(j *Job) { j.DurationS = 3600 })) }()
	out, wait := startAgent(context.Background(), stdin)
	go func() { _, _ = io.Copy(io.Discard, out) }()
	// Closed once the server has answered a GET (not after a sleep, which
	// a loaded machine can outlast before the agent read its job: the
	// close then ended an agent that never ran).
	for hang := time.Now().Add(2 * time.Minute); f.count(http.MethodGet) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(hang) {
			t.Fatal("the agent made no GET in 2 minutes")
		}
	}
	_ = w.Close()
	done := make(chan error, 1)
	go func() { done <- wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("an agent whose orchestrator left says nothing went wrong")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the agent still runs 30 s after its stdin closed")
	}
	// Requests written before the agent returned may reach the server
	// later on a loaded machine, at most one per user (each has one on
	// its way at a time); users still running would keep sending. So at
	// most 2 more may arrive: a bound that holds at any load (how many a
	// running user would send in 500 ms is this machine's speed, so a
	// slow one may only miss the fault, never fail a sound agent).
	n := f.count(http.MethodGet)
	time.Sleep(500 * time.Millisecond)
	if m := f.count(http.MethodGet); m > n+2 {
		t.Errorf("requests went on after the agent returned: %d more in 500 ms, want at most 2 (its users' last)", m-n)
	}
}
