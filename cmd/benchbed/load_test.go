package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"benchbed/results"
)

// runCmd runs benchbed with args and returns its stdout, stderr and error.
func runCmd(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetIn(strings.NewReader(stdin))
	err := root.Execute()
	return out.String(), errb.String(), err
}

// nullSwift answers every GET with a small body and every auth with 401.
func nullSwift(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/auth/") || r.Header.Get("X-Auth-Token") != "tok-secret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte("0123456789"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

const seedScenario = "../../testbeds/scenarios/64K_get_base1.scenario"

// loadTitle is the table's title of TestLoadTableAndJSON's 0.3 s run:
// its measured length, 0.3 s or any more a loaded machine took.
var loadTitle = regexp.MustCompile(`\| 64K_get; 2 users; (0\.[3-9]|[1-9][0-9.]*) s \|`)

func TestLoadTableAndJSON(t *testing.T) {
	srv := nullSwift(t)
	args := []string{"load", "--scenario", seedScenario, "--storage-url", srv.URL + "/v1/AUTH_t",
		"--token", "tok-secret", "--users", "2", "--duration", "300ms", "--initial", "skip"}
	out, _, err := runCmd(t, "", args...)
	// The title gives the run's measured length: 0.3 s, or more on a loaded machine.
	if err != nil || !loadTitle.MatchString(out) || !strings.Contains(out, "95th %ile") ||
		!strings.Contains(out, " GET |") {
		t.Fatalf("err %v, table:\n%s", err, out)
	}
	out, _, err = runCmd(t, "", append(args, "--json")...)
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("err %v, json:\n%s", err, out)
	}
	if c.Workload != "64K_get" || c.Ops["GET"].Count == 0 || c.Ops["GET"].Count != c.Total.Count || c.Total.Errors != 0 {
		t.Errorf("cell = %+v", c)
	}
	if strings.Contains(out, "tok-secret") {
		t.Error("the output shows the token")
	}
}

func TestLoadBadAuthFailsWithoutShowingTheKey(t *testing.T) {
	srv := nullSwift(t)
	args := []string{"load", "--scenario", seedScenario, "--auth-url", srv.URL + "/auth/v1.0",
		"--user", "a:b", "--key", "key-secret", "--users", "1", "--operations", "20"} // a count: no run too short for one
	out, errOut, err := runCmd(t, "", args...)
	if err == nil || !strings.Contains(err.Error(), "initial files") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(out+errOut+err.Error(), "key-secret") {
		t.Error("the key was printed")
	}
	out, errOut, err = runCmd(t, "", append(args, "--initial", "skip")...)
	if err == nil || !strings.Contains(err.Error(), "every operation failed") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(out+errOut+err.Error(), "key-secret") {
		t.Error("the key was printed")
	}
}

func TestLoadScenarioErrorsNameTheFile(t *testing.T) {
	_, _, err := runCmd(t, "", "load", "--scenario", "no/such.scenario", "--storage-url", "http://127.0.0.1:1", "--token", "t")
	if err == nil || !strings.Contains(err.Error(), "no/such.scenario") {
		t.Fatalf("err = %v", err)
	}
	_, _, err = runCmd(t, "", "load", "--scenario", seedScenario)
	if err == nil || !strings.Contains(err.Error(), "--storage-url") {
		t.Fatalf("no auth: err = %v", err)
	}
}

func TestAgentCommandRefusesSkew(t *testing.T) {
	job := `{"agent": "a", "scenario": {}, "auth": {"storage_url": "http://127.0.0.1:1", "token": "t"},` +
		`"start_at": "2001-01-01T00:00:00Z", "clock": "2001-01-01T00:00:00Z"}` + "\n"
	out, _, err := runCmd(t, job, "agent")
	if err == nil || !strings.Contains(out, `"type":"error"`) || !strings.Contains(out, "clock skew") {
		t.Fatalf("err %v, out %s", err, out)
	}
}
