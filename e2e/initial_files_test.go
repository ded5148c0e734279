package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"benchbed/results"
)

// ssbenchReadme is ssbench's README "Small test scenario", as published.
const ssbenchReadme = `{"name": "Small test scenario", "sizes": [{"name": "tiny", "size_min": 4096, "size_max": 65536},
 {"name": "small", "size_min": 100000, "size_max": 200000}], "initial_files": {"tiny": 100, "small": 10},
 "operation_count": 500, "crud_profile": [3, 4, 2, 2], "user_count": 7}`

// The lab's proxy and its tempauth user (lab.hcl; a lab-only key).
const (
	labAuthURL = "http://198.18.0.11:8080/auth/v1.0"
	labUser    = "bench:bench"
	labKey     = "lab-bench-key"
)

// TestLoadReadmeScenario runs ssbench's README scenario with `benchbed
// load` against the lab's Swift twice: each run puts what is missing of
// the 110 initial files (all of them the first time, none the second),
// then measures exactly its operations (the scenario's 500 the first
// time, --operations 100 the second) with no error and exits 0;
// afterwards the account holds the 110 initial files and nothing the run
// created. Then the same scenario with its initial files assumed
// (--initial skip, containers of their own) fails the error-rate gate:
// exit 1, status failed, 404 as the cause.
func TestLoadReadmeScenario(t *testing.T) {
	lab := Lab(t)
	setUp(t, lab, lab.Testbed)
	sw := newLabSwift(t)
	sw.deleteContainers(t, "ssbench_")
	dir := t.TempDir()
	file := filepath.Join(dir, "small.scenario")
	must(t, os.WriteFile(file, []byte(ssbenchReadme), 0o644))
	var initial []string
	runs := []struct {
		want  string
		ops   int64
		extra []string
	}{
		{"initial files: 110 put, 0 already in place", 500, nil},
		{"initial files: 0 put, 110 already in place", 100, []string{"--operations", "100"}},
	}
	for run, r := range runs {
		c, errOut := loadReadme(t, lab, file, r.extra...)
		if !strings.Contains(errOut, r.want) {
			t.Fatalf("run %d: stderr lacks %q:\n%s", run+1, r.want, errOut)
		}
		if c.Status != results.StatusOK || c.Total.Count != r.ops || c.Total.Errors != 0 {
			t.Fatalf("run %d: status %s, %d operations ok, %d failed (%v)", run+1, c.Status, c.Total.Count, c.Total.Errors, c.Total.ErrorsBy)
		}
		after := sw.objects(t, "ssbench_")
		if run == 0 {
			initial = after
		}
		if len(after) != 110 || !slices.Equal(after, initial) || !allInitial(after) {
			t.Fatalf("run %d: the account holds %d objects afterwards, want the 110 initial files only:\n%v", run+1, len(after), after)
		}
		t.Logf("run %d: %d operations, 0 errors, %d objects afterwards; stderr:\n%s", run+1, c.Total.Count, len(after), errOut)
	}
	testLoadGate(t, lab, dir)
}

// loadReadme runs benchbed load --json on file and wants exit 0.
func loadReadme(t *testing.T, lab *Env, file string, extra ...string) (results.Cell, string) {
	t.Helper()
	args := append([]string{"load", "--scenario", file, "--auth-url", labAuthURL, "--user", labUser, "--key", labKey, "--json"}, extra...)
	out, errOut, err := lab.Benchbed(t, args...)
	if err != nil {
		t.Fatalf("benchbed load: %v\n%s\n%s", err, out, errOut)
	}
	if strings.Contains(out+errOut, labKey) {
		t.Fatal("benchbed load printed the key")
	}
	var c results.Cell
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("benchbed load --json: %v\n%s", err, out)
	}
	return c, errOut
}

// testLoadGate: the README scenario in containers where nothing was put,
// with --initial skip, is the run: GETs and DELETEs of initial
// files meet 404s (100 operations of its 500: a quarter or more of them
// fail either way). The gate fails it: exit 1, the cell failed with its
// cause, the table's req/s marked failed.
func testLoadGate(t *testing.T, lab *Env, dir string) {
	file := filepath.Join(dir, "nofiles.scenario")
	must(t, os.WriteFile(file, []byte(strings.Replace(ssbenchReadme, `"user_count": 7`, `"user_count": 7, "container_base": "nofiles"`, 1)), 0o644))
	out, errOut, err := lab.Benchbed(t, "load", "--scenario", file, "--auth-url", labAuthURL, "--user", labUser, "--key", labKey,
		"--initial", "skip", "--operations", "100", "--json")
	var c results.Cell
	_ = json.Unmarshal([]byte(out), &c)
	code := exitCode(err)
	if code != 1 || c.Status != results.StatusFailed || !strings.Contains(c.Error, "http_404=") ||
		!strings.Contains(errOut, "above max_error_rate 1%") {
		t.Fatalf("without its initial files: exit %d, status %s, error %q\n%s", code, c.Status, c.Error, errOut)
	}
	t.Logf("without its initial files: exit %d, %d of %d operations failed: %s", code, c.Total.Errors, c.Total.Count+c.Total.Errors, c.Error)
	sw := newLabSwift(t)
	// Its updates of initial files that were not there put them (a PUT
	// creates); what it created itself it deleted.
	if objs := sw.objects(t, "nofiles_"); !allInitial(objs) {
		t.Errorf("the run left objects it created: %v", objs)
	}
	sw.deleteContainers(t, "nofiles_")
}

// allInitial reports whether every "container/name" is one of the README
// scenario's initial files (tiny_000001..100, small_000001..010).
func allInitial(objs []string) bool {
	re := regexp.MustCompile(`/(tiny_0000(0[1-9]|[1-9][0-9])|tiny_000100|small_0000(0[1-9]|10))$`)
	for _, o := range objs {
		if !re.MatchString(o) {
			return false
		}
	}
	return true
}

// labSwift talks to the lab's Swift as the bench user, from this machine.
type labSwift struct {
	hc    *http.Client
	url   string
	token string
}

func newLabSwift(t *testing.T) *labSwift {
	t.Helper()
	s := &labSwift{hc: &http.Client{Timeout: 30 * time.Second}}
	req, _ := http.NewRequest(http.MethodGet, labAuthURL, nil)
	req.Header.Set("X-Auth-User", labUser)
	req.Header.Set("X-Auth-Key", labKey)
	resp, err := s.hc.Do(req)
	if err != nil {
		t.Fatalf("auth: %v", err)
	}
	resp.Body.Close()
	s.url, s.token = resp.Header.Get("X-Storage-Url"), resp.Header.Get("X-Auth-Token")
	if resp.StatusCode != http.StatusOK || s.url == "" {
		t.Fatalf("auth: %s", resp.Status)
	}
	return s
}

// names lists the account (path "") or a container, all pages.
func (s *labSwift) names(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	marker := ""
	for {
		req, _ := http.NewRequest(http.MethodGet, s.url+path+"?format=json&marker="+marker, nil)
		req.Header.Set("X-Auth-Token", s.token)
		resp, err := s.hc.Do(req)
		if err != nil {
			t.Fatalf("listing %q: %v", path, err)
		}
		var page []struct{ Name string }
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if resp.StatusCode == http.StatusNoContent || len(page) == 0 {
			return out
		}
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("listing %q: %s %v", path, resp.Status, err)
		}
		for _, e := range page {
			out = append(out, e.Name)
		}
		marker = page[len(page)-1].Name
	}
}

// objects lists every object of the containers named prefix*, as
// "container/name", sorted.
func (s *labSwift) objects(t *testing.T, prefix string) []string {
	var out []string
	for _, c := range s.names(t, "") {
		if strings.HasPrefix(c, prefix) {
			for _, o := range s.names(t, "/"+c) {
				out = append(out, c+"/"+o)
			}
		}
	}
	slices.Sort(out)
	return out
}

// deleteContainers empties and deletes the containers named prefix*.
func (s *labSwift) deleteContainers(t *testing.T, prefix string) {
	for _, o := range s.objects(t, prefix) {
		s.delete(t, "/"+o)
	}
	for _, c := range s.names(t, "") {
		if strings.HasPrefix(c, prefix) {
			s.delete(t, "/"+c)
		}
	}
}

func (s *labSwift) delete(t *testing.T, path string) {
	req, _ := http.NewRequest(http.MethodDelete, s.url+path, nil)
	req.Header.Set("X-Auth-Token", s.token)
	resp, err := s.hc.Do(req)
	if err != nil {
		t.Fatalf("DELETE %s: %v", path, err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusNotFound {
		t.Fatalf("DELETE %s: %s", path, resp.Status)
	}
}
