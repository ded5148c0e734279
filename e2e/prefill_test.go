package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// prefillObjects is the prefill's size: 3 objects in each of its 256
// units, enough that a kill lands midway (after 40 units, 120 objects),
// and no more, so that the resumed fill takes seconds.
const prefillObjects = 768

// prefillScenario is prefillObjects objects of 4 KiB over 8 containers of
// their own.
var prefillScenario = `{"name": "pf_e2e", "sizes": [{"name": "4KiB", "size_min": 4096, "size_max": 4096}],
 "initial_files": {"4KiB": ` + strconv.Itoa(prefillObjects) + `}, "container_base": "pfe2e", "container_count": 8,
 "run_seconds": 10, "crud_profile": [0, 1, 0, 0], "user_count": 8}`

// TestPrefill: a prefill from two agents on client1, SIGKILLed midway,
// leaves no agent behind; prefilled again, it finishes without putting
// again what was there (counted against the containers' listings), and its
// listing check finds every object with its size.
func TestPrefill(t *testing.T) {
	lab := Lab(t)
	tb := prefillTestbed(t, lab)
	// tb is lab.hcl but for its workload's scenario and its prefill
	// block, which setup does not read: lab.hcl's setup is tb's (and
	// setUp skips it after the tests before, which set lab.hcl up).
	setUp(t, lab, lab.Testbed)
	state := t.TempDir()
	killPrefillMidway(t, lab, tb, state)
	if out := agentsLeft(t, lab); out != "" {
		t.Errorf("prefill agents left on client1 after the orchestrator was killed:\n%s", out)
	}
	there := listedObjects(t)
	if there == 0 || there >= prefillObjects {
		t.Fatalf("the killed prefill left %d objects: want some, not all", there)
	}
	out, errOut, err := lab.Benchbed(t, "prefill", "--json", "--state-dir", state, tb)
	if err != nil {
		t.Fatalf("prefill again: %v\n%s\n%s", err, out, errOut)
	}
	var res []struct {
		Objects int64 `json:"objects"`
		Fill    struct{ Put, Skipped, Failed int64 }
		Verify  *struct{ Put, Skipped, Failed int64 }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res) != 1 {
		t.Fatalf("prefill --json: %v\n%s", err, out)
	}
	r := res[0]
	if r.Objects != prefillObjects || r.Fill.Put != int64(prefillObjects-there) || r.Fill.Failed != 0 {
		t.Errorf("resumed prefill put %d with %d already listed (want %d): %+v", r.Fill.Put, there, prefillObjects-there, r)
	}
	if r.Verify == nil || r.Verify.Skipped != prefillObjects || r.Verify.Put != 0 {
		t.Errorf("the listing check after the fill: %+v, want %d found and none put", r.Verify, prefillObjects)
	}
	if n := listedObjects(t); n != prefillObjects {
		t.Errorf("the containers list %d objects, want %d", n, prefillObjects)
	}
	if strings.Contains(out+errOut, "lab-bench-key") {
		t.Errorf("prefill printed the auth key")
	}
	t.Logf("resumed prefill: %d put after %d were there; stderr:\n%s", r.Fill.Put, there, errOut)
}

func prefillTestbed(t *testing.T, lab *Env) string {
	t.Helper()
	s := strings.Replace(labText(t, lab), `scenario          = "64K_get_lab.scenario"`, `scenario          = "pf_e2e.scenario"`, 1)
	s = strings.Replace(s, "  concurrency = 16\n", "  concurrency = 4\n  agents_per_client = 2\n", 1)
	if !strings.Contains(s, "pf_e2e.scenario") || !strings.Contains(s, "agents_per_client = 2") {
		t.Fatalf("%s: the test's edit of the lab needs updating", lab.Testbed)
	}
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "pf_e2e.scenario"), []byte(prefillScenario), 0o644))
	p := filepath.Join(dir, "lab.hcl")
	must(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

// killPrefillMidway starts a prefill and SIGKILLs it once its checkpoint
// holds some units (of 256).
func killPrefillMidway(t *testing.T, lab *Env, tb, state string) {
	t.Helper()
	cmd := exec.Command(lab.binary(t), "prefill", "--state-dir", state, tb)
	cmd.Dir = lab.Root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	must(t, cmd.Start())
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case err := <-ended:
			t.Fatalf("prefill ended (%v) before it could be killed midway:\n%s", err, out.String())
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("prefill's checkpoint did not grow in 2 minutes:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if doneUnits(state) >= 40 {
			_ = cmd.Process.Kill()
			<-ended
			return
		}
	}
}

// doneUnits reads how many units the checkpoint in state holds.
func doneUnits(state string) int {
	files, _ := filepath.Glob(filepath.Join(state, "*.json"))
	for _, f := range files {
		var ck struct{ Done []int }
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &ck) == nil {
			return len(ck.Done)
		}
	}
	return 0
}

// listedObjects counts the objects the prefill's containers list, from
// this machine over HTTP (Swift's own listings, paged; no swift CLI to
// start per container).
func listedObjects(t *testing.T) int {
	t.Helper()
	return len(newLabSwift(t).objects(t, "pfe2e_"))
}

// agentsLeft waits for client1's prefill agents to end once their
// orchestrator is gone (each ends on its own when its SSH session does),
// and returns those still running after 30 s ("" when none is): the
// condition is polled, never a fixed sleep.
func agentsLeft(t *testing.T, lab *Env) string {
	t.Helper()
	begin := time.Now()
	out, err := lab.SSH(t, "client1", "for i in $(seq 300); do pgrep -f '[p]refill-agent' >/dev/null || exit 0; sleep 0.1; done; pgrep -af '[p]refill-agent'")
	if err != nil && strings.TrimSpace(out) == "" {
		t.Fatalf("client1: waiting for the prefill agents to end: %v", err)
	}
	if strings.TrimSpace(out) == "" {
		t.Logf("client1's prefill agents ended %.1f s after their orchestrator was killed", time.Since(begin).Seconds())
	}
	return strings.TrimSpace(out)
}
