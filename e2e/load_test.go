package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/results"
)

// The lab's proxy and its tempauth user (lab.hcl; a lab-only key), for the load tests.
const (
	loadAuthURL  = "http://198.18.0.11:8080/auth/v1.0"
	loadUser     = "bench:bench"
	loadKey      = "lab-bench-key"
	loadSwiftCLI = "export ST_AUTH=" + loadAuthURL + " ST_USER=" + loadUser + " ST_KEY=" + loadKey + "; "
)

// TestLoadOnLabSwift sets the lab up with lab.hcl (setUp: skipped when
// this binary's last setup, of the same file, left the lab as it is) and
// runs the steps in order.
func TestLoadOnLabSwift(t *testing.T) {
	lab := Lab(t)
	setUp(t, lab, lab.Testbed)
	steps := []struct {
		name string
		fn   func(*testing.T, *Env)
	}{
		{"PutHeadGetDelete", testObjectOps},
		{"ReauthOn401", testReauth},
		{"LoadReadsSsbenchNamedObjects", testLoadGet},
		{"LoadCreatesAndCleansUp", testLoadPut},
		{"LoadSearchAndAutoDuration", testLoadSearch},
	}
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) { s.fn(t, lab) }) {
			t.Fatalf("step %s failed; later steps depend on it", s.name)
		}
	}
}

func loadClient() *load.Client {
	hc := &http.Client{Transport: load.NewTransport(4), Timeout: time.Minute}
	return &load.Client{HTTP: hc, Auth: load.NewV1Auth(hc, loadAuthURL, loadUser, loadKey), MaxRetries: 2}
}

func loadDo(c *load.Client, method, cont, obj string, size int64) load.Outcome {
	return c.Do(context.Background(), &load.Request{Method: method, Container: cont, Object: obj, Size: size}, time.Now())
}

func testObjectOps(t *testing.T, _ *Env) {
	c := loadClient()
	steps := []struct {
		method string
		size   int64
		want   int
	}{{"PUT", 0, 201}, {"PUT", 65536, 201}, {"HEAD", 0, 200}, {"GET", 0, 200}, {"DELETE", 0, 204}, {"GET", 0, 404}}
	for _, s := range steps {
		obj := "o"
		if s.method == "PUT" && s.size == 0 {
			obj = "" // the container
		}
		if o := loadDo(c, s.method, "e2e-load", obj, s.size); o.Status != s.want {
			t.Fatalf("%s %s: %+v, want %d", s.method, obj, o, s.want)
		}
	}
}

// staleAuth hands out a token Swift never issued until it is invalidated,
// then real tokens: the client must meet a 401, re-auth and retry.
type staleAuth struct {
	mu    sync.Mutex
	stale bool
	real  load.Auth
}

func (a *staleAuth) Token(ctx context.Context) (string, string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	su, tok, err := a.real.Token(ctx)
	if a.stale {
		tok = "AUTH_tk00000000000000000000000000000000"
	}
	return su, tok, err
}

func (a *staleAuth) Invalidate(tok string) {
	a.mu.Lock()
	a.stale = false
	a.mu.Unlock()
	a.real.Invalidate(tok)
}

func testReauth(t *testing.T, _ *Env) {
	c := loadClient()
	c.Auth = &staleAuth{stale: true, real: c.Auth}
	if o := loadDo(c, "PUT", "e2e-load", "r", 10); !o.OK() || o.Retries != 1 {
		t.Fatalf("PUT with a stale token: %+v, want success after one retry", o)
	}
	s := c.NewSession(context.Background())
	defer s.Close()
	c.Auth.(*staleAuth).stale = true
	if o := s.Do(&load.Request{Method: "GET", Container: "e2e-load", Object: "r"}, time.Now()); !o.OK() || o.Retries != 1 {
		t.Fatalf("session GET with a stale token: %+v, want success after one retry", o)
	}
}

// scenario writes a scenario file for the lab and returns its path.
func loadScenario(t *testing.T, crud string, count int) string {
	p := filepath.Join(t.TempDir(), "lab.scenario")
	s := `{"name": "e2e", "sizes": [{"name": "4KiB", "size_min": 4096, "size_max": 4096}],
	  "initial_files": {"4KiB": 5}, "container_base": "e2eload", "container_count": 2,
	  "crud_profile": ` + crud + `, "operation_count": ` + strconv.Itoa(count) + `, "user_count": 4}`
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runLoad(t *testing.T, lab *Env, file string) results.Cell {
	out, errOut, err := lab.Benchbed(t, "load", "--scenario", file, "--auth-url", loadAuthURL, "--user", loadUser,
		"--key", loadKey, "--json")
	if err != nil {
		t.Fatalf("benchbed load: %v\n%s\n%s", err, out, errOut)
	}
	if strings.Contains(out+errOut, loadKey) {
		t.Fatalf("benchbed load printed the key")
	}
	var c results.Cell
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("benchbed load --json: %v\n%s", err, out)
	}
	return c
}

// testLoadGet puts ssbench's initial objects with the swift CLI (as
// ssbench names and places them: 4KiB_000001.. round-robin over
// e2eload_000000_default_policy and _000001_; the five uploads at once,
// each waited for and its exit checked), then reads them with benchbed load.
func testLoadGet(t *testing.T, lab *Env) {
	script := loadSwiftCLI + `set -e; head -c 4096 /dev/urandom > /tmp/e2e-4k
pids=; for i in 1 2 3 4 5; do swift upload e2eload_00000$(( (i - 1) % 2 ))_default_policy /tmp/e2e-4k --object-name 4KiB_00000$i >/dev/null & pids="$pids $!"; done
for p in $pids; do wait $p; done; echo put`
	if out, err := lab.SSH(t, "client1", script); err != nil || !strings.Contains(out, "put") {
		t.Fatalf("swift upload on client1: %v\n%s", err, out)
	}
	c := runLoad(t, lab, loadScenario(t, "[0, 1, 0, 0]", 40))
	if g := c.Ops["GET"]; g.Count != 40 || g.Errors != 0 || g.LastByte.P50 <= 0 {
		t.Fatalf("GET: %+v", g)
	}
}

// testLoadPut creates, reads and updates objects with benchbed load and
// checks that it deleted the ones it created (its DELETEs), leaving the
// initial ones.
func testLoadPut(t *testing.T, lab *Env) {
	c := runLoad(t, lab, loadScenario(t, "[3, 1, 1, 0]", 30))
	if p := c.Ops["PUT"]; p.Count == 0 || p.Errors != 0 || c.Total.Count+c.Total.Errors != 30 {
		t.Fatalf("cell: %+v", c)
	}
	out, err := lab.SSH(t, "client1", loadSwiftCLI+"swift list e2eload_000000_default_policy; swift list e2eload_000001_default_policy")
	if err != nil {
		t.Fatalf("swift list: %v\n%s", err, out)
	}
	for _, name := range strings.Fields(out) {
		if name > "4KiB_000005" {
			t.Errorf("object %s created by the run is still there:\n%s", name, out)
		}
	}
}
