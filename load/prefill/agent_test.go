package prefill

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"benchbed/load"
)

func agentJob(t *testing.T, url string, part, parts int, done []int) []byte {
	t.Helper()
	sc := `{"name":"t","sizes":[{"name":"4KiB","size_min":4096,"size_max":4096}],"initial_files":{"4KiB":3000},` +
		`"container_count":3,"container_base":"pa","run_seconds":1,"crud_profile":[0,1,0,0]}`
	b, err := json.Marshal(AgentJob{Agent: "a", Scenario: json.RawMessage(sc), Part: part, Parts: parts, Done: done,
		Concurrency: 4, Auth: load.AuthSpec{URL: url + "/auth/v1.0", User: "test:tester", Key: "testing"}})
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// runAgent runs one agent on job and reads its events as an orchestrator.
// closeIn closes its stdin right after the job, as an orchestrator that
// went away would.
func runAgent(t *testing.T, job []byte, closeIn ...bool) (units []int, tot Totals, err error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = RunAgent(context.Background(), inR, outW)
		outW.Close()
	}()
	if _, err := inW.Write(job); err != nil {
		t.Fatal(err)
	}
	if len(closeIn) > 0 {
		inW.Close()
	}
	tot, err = ReadAgent(outR, func(u int) { units = append(units, u) }, func(Totals) {})
	inW.Close()
	return units, tot, err
}

func TestAgentsShareThePrefillAndResume(t *testing.T) {
	srv := &swiftServer{m: newMemStore()}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	u0, t0, err := runAgent(t, agentJob(t, ts.URL, 0, 2, nil))
	if err != nil {
		t.Fatal(err)
	}
	if t0.Put == 0 || len(u0) == 0 {
		t.Fatalf("agent 0 of 2: %+v, units %v", t0, u0)
	}
	for _, u := range u0 {
		if u%2 != 0 {
			t.Fatalf("agent 0 of 2 did unit %d", u)
		}
	}
	// Agent 1 is told agent 0's units are done too: it does only its own.
	u1, t1, err := runAgent(t, agentJob(t, ts.URL, 1, 2, u0))
	if err != nil {
		t.Fatal(err)
	}
	if t0.Put+t1.Put != 3000 || srv.m.count() != 3000 || len(u0)+len(u1) != 258 {
		t.Fatalf("put %d + %d (store %d), units %d + %d", t0.Put, t1.Put, srv.m.count(), len(u0), len(u1))
	}
	// A rerun with every unit done puts nothing.
	all := append(append([]int{}, u0...), u1...)
	_, t2, err := runAgent(t, agentJob(t, ts.URL, 0, 1, all))
	if err != nil || t2.Put != 0 {
		t.Fatalf("rerun: %+v, %v", t2, err)
	}
}

func TestAgentReportsBadJobs(t *testing.T) {
	for _, job := range []string{"not json\n", `{"agent":"a","scenario":{"name":"x"}}` + "\n", ""} {
		_, _, err := runAgent(t, []byte(job), true)
		if err == nil {
			t.Errorf("job %q: no error", job)
		}
	}
	ts := httptest.NewServer(&swiftServer{m: newMemStore()})
	defer ts.Close()
	_, _, err := runAgent(t, agentJob(t, ts.URL, 2, 2, nil))
	if err == nil || !strings.Contains(err.Error(), "part 2 of 2") {
		t.Fatalf("bad part: %v", err)
	}
}
