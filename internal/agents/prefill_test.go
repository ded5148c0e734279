package agents

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/load/prefill"
	"benchbed/plan"
	"benchbed/plan/decode"
)

func prefillTestbed(t *testing.T, url string) *plan.Testbed {
	t.Helper()
	dir := t.TempDir()
	sc := `{"name":"pf","sizes":[{"name":"4KiB","size_min":4096,"size_max":4096}],"initial_files":{"4KiB":3000},` +
		`"container_base":"pft","container_count":5,"run_seconds":1,"crud_profile":[0,1,0,0]}`
	if err := os.WriteFile(filepath.Join(dir, "pf.scenario"), []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `testbed "pft" {}
host "c1" {
  address = "127.0.0.1"
  roles   = ["client"]
}
host "c2" {
  address = "127.0.0.2"
  roles   = ["client"]
}
workload "w" {
  scenario = "pf.scenario"
  clients  = ["c1", "c2"]
  auth {
    url  = "` + url + `/auth/v1.0"
    user = "t:t"
    key  = "secret-key"
  }
}
variant "normal" {}
prefill {
  agents_per_client = 2
  concurrency       = 4
}
`
	p := filepath.Join(dir, "pft.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.Load(p, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tb
}

func TestPrefillFromAgentsResumesAndVerifies(t *testing.T) {
	m := &labtest.Swift{Objects: map[string]map[string]int64{}}
	k := &putKiller{Swift: m, after: 1000}
	srv := httptest.NewServer(k)
	defer srv.Close()
	tb := prefillTestbed(t, srv.URL)
	state := t.TempDir()
	hosts := &localPrefill{started: map[string]int{}}

	// A first prefill killed after a few units.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k.cancel.Store(&cancel)
	_, err := Prefill(ctx, tb, hosts, PrefillOptions{StateDir: state})
	if err == nil {
		t.Fatal("a killed prefill reported success")
	}
	if !errors.Is(err, context.Canceled) {
		t.Logf("killed prefill: %v", err)
	}
	// PUTs the killed agents had sent may land after this, but with the
	// token the kill revoked: they store nothing (putKiller), so the
	// count is final, whatever the load, as a resumed prefill sees it.
	first := count(m)
	if first == 0 || first >= 3000 {
		t.Fatalf("the kill left %d objects: want some, not all", first)
	}
	if hosts.started["c1"] != 2 || hosts.started["c2"] != 2 {
		t.Fatalf("agents started per host: %v, want 2 on each", hosts.started)
	}
	var out strings.Builder
	res, err := Prefill(context.Background(), tb, hosts, PrefillOptions{StateDir: state, Progress: &out})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Fill.Put != int64(3000-first) || count(m) != 3000 {
		t.Fatalf("resumed fill put %d after %d were there (store %d): %+v", r.Fill.Put, first, count(m), r)
	}
	if r.Verify == nil || r.Verify.Skipped != 3000 || r.Verify.Put != 0 {
		t.Fatalf("listing check %+v, want 3000 found, none put", r.Verify)
	}
	if !strings.Contains(out.String(), "3000/3000 objects") || strings.Contains(out.String(), "secret-key") {
		t.Fatalf("progress lines:\n%s", out.String())
	}
	// A complete checkpoint: only the listing check runs.
	res, err = Prefill(context.Background(), tb, hosts, PrefillOptions{StateDir: state})
	if err != nil || res[0].Fill.Put != 0 || res[0].Fill.Skipped != 0 || res[0].Verify.Skipped != 3000 {
		t.Fatalf("third prefill %+v, %v", res, err)
	}
}

func count(m *labtest.Swift) (n int) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	for _, c := range m.Objects {
		n += len(c)
	}
	return n
}

// putKiller passes requests to a memSwift and, once after object PUTs
// have been answered, kills: revokes the token and calls cancel under the
// store's lock, so that no PUT of the killed agents (those still on their
// way, or a retry) stores anything after it (the cancelled agents cannot
// authenticate again). Like tempauth, it hands every agent the same token
// while it is valid (memSwift would revoke the others').
type putKiller struct {
	*labtest.Swift
	after  int64
	puts   atomic.Int64
	cancel atomic.Pointer[context.CancelFunc]
}

func (k *putKiller) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/auth/v1.0" {
		k.Swift.Mu.Lock()
		tok := k.Swift.Token
		k.Swift.Mu.Unlock()
		if tok != "" {
			w.Header().Set("X-Storage-Url", "http://"+r.Host+"/v1/AUTH_t")
			w.Header().Set("X-Auth-Token", tok)
			return
		}
	}
	k.Swift.ServeHTTP(w, r)
	if r.Method == http.MethodPut && strings.Count(r.URL.Path, "/") >= 4 && k.puts.Add(1) == k.after {
		if c := k.cancel.Load(); c != nil {
			k.Swift.Mu.Lock()
			k.Swift.Token = ""
			(*c)()
			k.Swift.Mu.Unlock()
		}
	}
}

// stuckAgents start agents that never end on their own: only the end of
// their stdin stops them. Each says on read (if not nil) once it has read
// the start of its job.
type stuckAgents struct {
	localPrefill
	read chan struct{}
}

func (s *stuckAgents) StartPrefillAgent(_ context.Context, host, bin string) (*Proc, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		buf := make([]byte, 1)
		if n, _ := inR.Read(buf); n > 0 && s.read != nil {
			select {
			case s.read <- struct{}{}:
			default:
			}
		}
		_, _ = io.Copy(io.Discard, inR) // reads the job, then waits for EOF
		outW.Close()
		done <- nil
	}()
	return &Proc{Stdin: inW, Stdout: outR, Wait: func() error { return <-done }}, nil
}

// TestPrefillCancelEndsTheAgentsStdin: a prefill cancelled once an agent
// holds its job (not after a sleep, which a loaded machine can outlast
// before any agent started: the cancel then tested nothing) ends the
// agents' stdin and returns an error; the minute bounds a hang.
func TestPrefillCancelEndsTheAgentsStdin(t *testing.T) {
	tb := prefillTestbed(t, "http://127.0.0.1:9")
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	agents := &stuckAgents{read: make(chan struct{}, 1)}
	go func() {
		_, err := Prefill(ctx, tb, agents, PrefillOptions{StateDir: t.TempDir()})
		ended <- err
	}()
	select {
	case <-agents.read:
	case err := <-ended:
		t.Fatalf("the prefill ended before an agent read its job: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("no agent read its job")
	}
	cancel()
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("a cancelled prefill reported success")
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("a cancelled prefill still waits for agents that only stop when their stdin ends")
	}
}

// localPrefill runs prefill agents in this process, as if on hosts.
type localPrefill struct {
	mu      sync.Mutex
	started map[string]int
}

// Install returns a binary path per host; nothing is copied.
func (l *localPrefill) Install(_ context.Context, host string) (string, error) {
	return "/opt/benchbed-" + host, nil
}

// StartPrefillAgent runs a prefill agent in this process, counting the
// starts per host.
func (l *localPrefill) StartPrefillAgent(ctx context.Context, host, bin string) (*Proc, error) {
	l.mu.Lock()
	l.started[host]++
	l.mu.Unlock()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := prefill.RunAgent(ctx, inR, outW)
		outW.Close()
		done <- err
	}()
	return &Proc{Stdin: inW, Stdout: outR, Wait: func() error { return <-done }}, nil
}

// TestPrefillSameObjectsOnce: a workload of the same scenario in the same
// account as one prefilled before it is not prefilled again; one of
// another scenario is.
func TestPrefillSameObjectsOnce(t *testing.T) {
	m := &labtest.Swift{Objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(&putKiller{Swift: m, after: -1}) // one token for every agent, no kill
	defer srv.Close()
	tb := prefillTestbed(t, srv.URL)
	same, other := *tb.Workloads[0], *tb.Workloads[0]
	same.Name, other.Name = "same", "other"
	other.ScenarioJSON = []byte(strings.Replace(string(other.ScenarioJSON), `"container_base":"pft"`, `"container_base":"pfo"`, 1))
	tb.Workloads = append(tb.Workloads, &same, &other)
	hosts := &localPrefill{started: map[string]int{}}
	res, err := Prefill(context.Background(), tb, hosts, PrefillOptions{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || res[0].SameAs != "" || res[1].Workload != "same" || res[1].SameAs != "w" || res[1].Objects != 3000 ||
		res[2].SameAs != "" || res[2].Fill.Put != 3000 {
		t.Fatalf("results %+v", res)
	}
	// w's and other's fill and listing check: 2 agents per client each.
	if hosts.started["c1"] != 8 || count(m) != 6000 {
		t.Errorf("agents started %v, objects %d", hosts.started, count(m))
	}
}
