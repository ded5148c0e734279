package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// putgetScenario is the workload: 4 KiB PUTs and GETs over 300
// initial files.
const putgetScenario = `{"name": "4K_putget", "sizes": [{"name": "4KiB", "size_min": 4096, "size_max": 4096}],
 "initial_files": {"4KiB": 300}, "container_base": "e2epre", "container_count": 6,
 "run_seconds": 6, "crud_profile": [1, 3, 0, 0], "user_count": 8}`

// TestSweepPreconditionAndGate: a lab testbed without a prefill block
// whose two workloads read 300 initial files that are not there is
// refused before any change (exit 1, the workload, containers and counts
// named, no lock taken, no container created). With the files put
// (benchbed load's initial phase) the same sweep runs both cells in one
// sweep: 4K_putget (bounded by an operation count, gateOps) is ok with 0
// errors; 4K_expiring, whose objects expire after a second (delete_after
// = 1) and are read afterwards, meets 404s: its cell (6 s: reads of
// objects older than a second need time) fails the error-rate gate, the
// table says so and the sweep exits 1.
func TestSweepPreconditionAndGate(t *testing.T) {
	lab := Lab(t)
	setUp(t, lab, lab.Testbed)
	sw := newLabSwift(t)
	sw.deleteContainers(t, "e2epre_")
	dir := t.TempDir()
	expiring := strings.Replace(strings.Replace(putgetScenario, `"user_count": 8`, `"user_count": 8, "delete_after": 1`, 1),
		`"name": "4K_putget"`, `"name": "4K_expiring"`, 1)
	tb := noPrefillTestbed(t, lab, dir, []preWorkload{{"4K_putget", putgetScenario, gateOps}, {"4K_expiring", expiring, `duration = "6s"`}})

	out, errOut, err := sweep(t, lab, tb, dir)
	if code := exitCode(err); code != 1 || !strings.Contains(errOut, "workload 4K_putget: 300 of its 300 initial objects are missing") ||
		!strings.Contains(errOut, "e2epre_000000_default_policy holds 0 of 50") || !strings.Contains(errOut, "add `prefill {") {
		t.Fatalf("refusal: exit %d\n%s\n%s", code, out, errOut)
	}
	if steps := journalSteps(t, dir); strings.Contains(steps, "lock") || !strings.Contains(steps, "preconditions:failed") {
		t.Fatalf("the refused sweep's journal: %s", steps)
	}
	if objs := sw.objects(t, "e2epre_"); len(objs) != 0 || len(sw.names(t, "")) > 0 && hasPrefix(sw.names(t, ""), "e2epre_") {
		t.Fatalf("the refused sweep changed the account: %v", objs)
	}
	t.Logf("refused before any change:\n%s", errOut)

	file := filepath.Join(dir, "4K_putget.scenario")
	if out, errOut, err := lab.Benchbed(t, "load", "--scenario", file, "--auth-url", labAuthURL, "--user", labUser,
		"--key", labKey, "--operations", "1"); err != nil || !strings.Contains(errOut, "initial files: 300 put") {
		t.Fatalf("putting the initial files: %v\n%s\n%s", err, out, errOut)
	}
	out, errOut, err = sweep(t, lab, tb, t.TempDir())
	cells := sweepCells(t, out, err, errOut, 2)
	if cell := cells[0]; cell.Workload != "4K_putget" || cell.Status != results.StatusOK || cell.Total.Errors != 0 || cell.Total.Count == 0 {
		t.Fatalf("with the files in place: cell %s %s, %+v\n%s\n%s", cell.ID, cell.Status, cell.Total, out, errOut)
	}
	t.Logf("with the files in place: %d operations, 0 errors:\n%s", cells[0].Total.Count, out)
	if cell := cells[1]; exitCode(err) != 1 || cell.Workload != "4K_expiring" || cell.Status != results.StatusFailed ||
		!strings.Contains(cell.Error, "http_404=") || !strings.Contains(out, "| failed: ") {
		t.Fatalf("expiring objects: exit %d, cell %s status %s, error %q\n%s\n%s", exitCode(err), cell.ID, cell.Status, cell.Error, out, errOut)
	}
	t.Logf("objects read after they expired: exit 1, %s", cells[1].Error)
	sw.deleteContainers(t, "e2epre_")
}

// gateOps bounds a cell that needs only some operations without error.
const gateOps = "operation_count = 400"

// preWorkload is one workload of noPrefillTestbed: its name (and its
// scenario file's), the scenario and what bounds its run.
type preWorkload struct{ name, scenario, bound string }

// noPrefillTestbed is lab.hcl with its prefill block removed and its
// workload replaced by ws, each over its scenario (written beside it), its
// run bounded by its bound (`duration = "6s"` or gateOps); cells are short.
func noPrefillTestbed(t *testing.T, lab *Env, dir string, ws []preWorkload) string {
	t.Helper()
	s := labText(t, lab)
	var blocks strings.Builder
	for _, w := range ws {
		blocks.WriteString("workload \"" + w.name + "\" {\n  scenario = \"" + w.name + ".scenario\"\n  users    = 8\n  " + w.bound +
			"\n  clients  = [\"client1\"]\n  auth {\n    url  = \"http://198.18.0.11:8080/auth/v1.0\"\n    user = \"bench:bench\"\n    key  = var.auth_key\n  }\n}\n\n")
		must(t, os.WriteFile(filepath.Join(dir, w.name+".scenario"), []byte(w.scenario), 0o644))
	}
	s = applyEdits(t, lab.Testbed, s, []labEdit{
		{`(?s)\nprefill \{.*?\n\}\n`, "\n"},
		{`(?s)workload "64K_get" \{.*?\n\}\n\n`, strings.ReplaceAll(blocks.String(), "$", "$$")},
		{`warmup     = "5s"`, `warmup     = "1s"`},
	})
	p := filepath.Join(dir, "lab.hcl")
	must(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

// sweep runs the normal variant of tb with its runs under runs.
func sweep(t *testing.T, lab *Env, tb, runs string) (string, string, error) {
	t.Helper()
	return lab.Benchbed(t, "sweep", tb, "--only", "normal", "--runs-dir", runs)
}

// journalSteps lists the one run's journal under runs as "step:status".
func journalSteps(t *testing.T, runs string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(runs, "*", "*", rundir.JournalFile))
	if len(files) != 1 {
		t.Fatalf("journals under %s: %v", runs, files)
	}
	b, err := os.ReadFile(files[0])
	must(t, err)
	var steps []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e rundir.Entry
		must(t, json.Unmarshal([]byte(l), &e))
		steps = append(steps, e.Step+":"+e.Status)
	}
	return strings.Join(steps, " ")
}

// sweepCells reads the n cells of the sweep whose stderr names its run
// directory ("sweep: results in DIR").
func sweepCells(t *testing.T, out string, err error, errOut string, n int) []results.Cell {
	t.Helper()
	m := regexp.MustCompile(`sweep: results in (\S+)`).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("sweep: %v, no run directory named\n%s\n%s", err, out, errOut)
	}
	b, rerr := os.ReadFile(filepath.Join(m[1], rundir.SummaryFile))
	must(t, rerr)
	var sum results.Summary
	must(t, json.Unmarshal(b, &sum))
	if len(sum.Cells) != n {
		t.Fatalf("%d cells in %s, want %d", len(sum.Cells), m[1], n)
	}
	return sum.Cells
}

func hasPrefix(names []string, prefix string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}
