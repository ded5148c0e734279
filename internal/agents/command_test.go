package agents

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"benchbed/plan/outparse"
	"benchbed/remote"
)

// fakeRunner answers every command with a fixture's content as stdout,
// and records the commands by host; fail makes that host's commands exit 1.
type fakeRunner struct {
	mu   sync.Mutex
	out  []byte
	fail string
	ran  map[string][]string
}

func (f *fakeRunner) Run(_ context.Context, host, cmd string) (*remote.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ran == nil {
		f.ran = map[string][]string{}
	}
	f.ran[host] = append(f.ran[host], cmd)
	res := &remote.Result{Host: host, Cmd: cmd, Stdout: f.out}
	if host == f.fail {
		res.Code = 1
		return res, fmt.Errorf("run: %w", &remote.ExitError{Host: host, Cmd: cmd, Code: 1})
	}
	return res, nil
}

func TestRunSumsRatesAveragesTimes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "plan", "outparse", "testdata", "curl.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeRunner{out: b}
	p, _ := outparse.Builtin("curl")
	res, err := RunCommand(context.Background(), f, CommandJob{Command: "curl -s URL", Parser: p, Hosts: []string{"c1", "c2"}, Copies: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.ran["c1"]) != 2 || len(f.ran["c2"]) != 1 {
		t.Fatalf("copies by host: %v", f.ran)
	}
	if !strings.Contains(strings.Join(f.ran["c1"], "|"), "BENCHBED_COPY=2 BENCHBED_COPIES=3") {
		t.Errorf("copy 2 did not get its number: %v", f.ran["c1"])
	}
	m, err := res.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	if tp := m[outparse.Throughput]; tp.How != "sum" || !near(tp.Value, 3*1700.163761) || len(tp.PerCopy) != 3 {
		t.Errorf("throughput = %+v, want three copies' sum", tp)
	}
	if tt := m["time_total"]; tt.How != "mean" || !near(tt.Value, 0.039472) || tt.Unit != "s" {
		t.Errorf("time_total = %+v, want the copies' mean", tt)
	}
}

func TestRunNamesFailedCopies(t *testing.T) {
	f := &fakeRunner{out: []byte("not curl output\n"), fail: "c2"}
	p, _ := outparse.Builtin("curl")
	res, err := RunCommand(context.Background(), f, CommandJob{Command: "curl", Parser: p, Hosts: []string{"c1", "c2"}, Copies: 2})
	var ee *remote.ExitError
	if err == nil || !errors.As(err, &ee) || !strings.Contains(err.Error(), "c2: copy 1:") || !strings.Contains(err.Error(), "c1: copy 0: curl:") {
		t.Fatalf("error %v, want c2's exit and c1's parse failure", err)
	}
	if len(res.Copies) != 2 || res.Copies[0].Err == nil {
		t.Errorf("copies %+v", res.Copies)
	}
	if _, err := RunCommand(context.Background(), f, CommandJob{Command: "x", Parser: p, Copies: 1}); err == nil {
		t.Error("a job without hosts ran")
	}
}

func TestMetricsRefusesMismatchedCopies(t *testing.T) {
	r := CommandResult{Copies: []CommandCopy{
		{Host: "c1", Figures: outparse.Figures{outparse.Throughput: {Value: 1, Unit: outparse.MBps}}},
		{Host: "c1", Index: 1, Figures: outparse.Figures{outparse.Throughput: {Value: 1, Unit: "s"}}},
	}}
	if _, err := r.Metrics(); err == nil || !strings.Contains(err.Error(), "copy 1 has no throughput") {
		t.Errorf("error %v", err)
	}
	r.Copies[1].Figures = outparse.Figures{outparse.Throughput: {Value: 2, Unit: outparse.MBps}, "extra": {Value: 1, Unit: "s"}}
	if _, err := r.Metrics(); err == nil || !strings.Contains(err.Error(), "2 figures") {
		t.Errorf("error %v", err)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
