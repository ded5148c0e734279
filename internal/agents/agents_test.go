package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/load"
	"benchbed/results"
)

const agentsScenario = `{"name": "get", "crud_profile": [0, 1, 0, 0], "run_seconds": 1, "user_count": 4,
  "container_count": 2, "sizes": [{"name": "tiny", "size_min": 10, "size_max": 10}], "initial_files": {"tiny": 20}}`

func TestRunAgentsMergesAllAgents(t *testing.T) {
	srv := labtest.ObjectServer(t)
	la := &Local{}
	logs := t.TempDir()
	m, err := RunAgents(context.Background(), la, Job{Name: "c1", Clients: []string{"cl1", "cl2"}, PerClient: 2,
		Scenario: []byte(agentsScenario), Auth: load.AuthSpec{StorageURL: srv.URL + "/v1/AUTH_t", Token: "tok"},
		Users: 6, Duration: 300 * time.Millisecond, Lead: 200 * time.Millisecond, LogDir: logs})
	if err != nil {
		t.Fatal(err)
	}
	if m.Done != 4 || la.started != 4 || len(la.installs) != 2 {
		t.Fatalf("%d agents done, %d started, installs %v; want 4, 4, one per client", m.Done, la.started, la.installs)
	}
	if n := m.Recording["GET"].LastByte.Count(); n == 0 {
		t.Fatal("no GET merged")
	}
	users := 0
	for _, j := range la.Jobs {
		users += j.Users
		if !j.StartAt.Equal(la.Jobs[0].StartAt) || !j.Clock.IsZero() || j.DurationS != 0.3 {
			t.Fatalf("job %+v: every agent shares start_at and the duration; no clock (measured apart)", j)
		}
	}
	kept, _ := filepath.Glob(filepath.Join(logs, "agent-*.jsonl"))
	if len(kept) != 4 {
		t.Fatalf("agent streams kept: %v, want 4", kept)
	}
	if b, _ := os.ReadFile(kept[0]); !strings.Contains(string(b), `"type":"done"`) {
		t.Fatalf("a kept stream lacks the agent's done event:\n%s", b)
	}
	if len(la.Jobs) != 4 || users != 6 {
		t.Fatalf("%d jobs with %d users in all, want 4 and 6", len(la.Jobs), users)
	}
}

func TestRunAgentsRefusesClockSkew(t *testing.T) {
	la := &Local{offsets: map[string]time.Duration{"cl2": 150 * time.Millisecond}}
	_, err := RunAgents(context.Background(), la, Job{Clients: []string{"cl1", "cl2"},
		Scenario: []byte(agentsScenario), Auth: load.AuthSpec{StorageURL: "http://127.0.0.1:1/v1/a", Token: "tok"}})
	if err == nil || !strings.Contains(err.Error(), "cl2") || !strings.Contains(err.Error(), "150ms") {
		t.Fatalf("err = %v, want a refusal naming cl2 and its offset", err)
	}
	if la.started != 0 {
		t.Fatalf("%d agents started despite the skew", la.started)
	}
}

func TestRunAgentsStopsOnCancel(t *testing.T) {
	srv := labtest.ObjectServer(t)
	la := &Local{}
	ctx, cancel := context.WithCancel(context.Background())
	lives := make(chan results.Live, 100)
	go func() { // once a GET is merged, not after a time that may hold none
		for l := range lives {
			if l.Done > 0 {
				cancel()
				return
			}
		}
	}()
	m, err := RunAgents(ctx, la, Job{Clients: []string{"cl1"}, PerClient: 2, Scenario: []byte(agentsScenario),
		Auth: load.AuthSpec{StorageURL: srv.URL + "/v1/AUTH_t", Token: "tok"}, Duration: time.Hour,
		Lead: 100 * time.Millisecond, Live: func(l results.Live) {
			select {
			case lives <- l:
			default:
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancel", err)
	}
	if m == nil || m.Recording["GET"] == nil || m.Recording["GET"].LastByte.Count() == 0 {
		t.Fatal("the partial results of a stopped run are kept")
	}
}

func TestAgentJobsSplit(t *testing.T) {
	fill := &results.FillSpec{Objects: 1000, Buckets: 10}
	r := Job{Name: "x", Ops: 10, Rate: 90, Fill: fill}
	jobs := r.agentJobs(7, time.Unix(100, 0), []string{"a", "b", "a"})
	var users int
	var ops int64
	for i, j := range jobs {
		users += j.Users
		ops += j.Ops
		if j.Rate != 30 || j.Fill != fill || j.Part != i || j.Parts != 3 {
			t.Fatalf("job %d: rate %v (want 30 each), fill %v, part %d of %d", i, j.Rate, j.Fill, j.Part, j.Parts)
		}
	}
	if users != 7 || ops != 10 || jobs[0].Users != 3 || jobs[2].Users != 2 {
		t.Fatalf("jobs %+v", jobs)
	}
	if got := (Job{Clients: []string{"a", "b"}, PerClient: 3}).agentHosts(4); strings.Join(got, ",") != "a,b,a,b" {
		t.Fatalf("hosts %v: capped at the users", got)
	}
}

func TestParseEpoch(t *testing.T) {
	for in, want := range map[string]time.Time{
		"1700000000.123456": time.Unix(1700000000, 123456000),
		"1700000000,5":      time.Unix(1700000000, 500000000),
		"1700000000":        time.Unix(1700000000, 0),
	} {
		got, err := parseEpoch(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseEpoch(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := parseEpoch("bash: EPOCHREALTIME: unbound"); err == nil {
		t.Error("garbage accepted")
	}
}
