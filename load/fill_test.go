package load

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"benchbed/plan/scenario"
	"benchbed/results"
)

const fillScenario = `{"name": "fill", "crud_profile": [1, 0, 0, 0], "run_seconds": 900, "container_count": %d,
  "sizes": [{"name": "1B", "size_min": 1, "size_max": 1}], "initial_files": {"1B": 1}, "user_count": 4}`

func fillScenarioJSON(containers int) string { return fmt.Sprintf(fillScenario, containers) }

// checkFill checks a fill run's buckets: the creates in all, each bucket
// holding some, none more than an even share plus the creates in flight.
func checkFill(t *testing.T, spec results.FillSpec, fill results.FillRecording, creates, users int64) {
	t.Helper()
	got, err := results.SummariseFill(spec, fill)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for i, b := range got {
		sum += b.Count
		share := (b.To - b.From) * creates / spec.Objects
		if b.Count == 0 || b.Count > share+users {
			t.Errorf("bucket %d [%d, %d): %d creates, an even share is %d", i, b.From, b.To, b.Count, share)
		}
	}
	if sum != creates {
		t.Errorf("the buckets hold %d creates, the run made %d", sum, creates)
	}
}

// TestFillRunBucketsEveryCreate: a fill run creates container_objects
// objects in each container (not the scenario's 900 s) and records each
// create in the bucket of the fill it started at.
func TestFillRunBucketsEveryCreate(t *testing.T) {
	f := newFakeSwift(t)
	s, err := scenario.Parse([]byte(fillScenarioJSON(2)))
	if err != nil {
		t.Fatal(err)
	}
	spec := results.FillSpec{Objects: 150, Buckets: 10}
	var intervals int
	res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing"), Fill: &spec, Keep: true,
		Interval: 5 * time.Millisecond, OnInterval: func(_, _ time.Time, _ results.Recording, fill results.FillRecording) {
			intervals += len(fill)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Recording[OpCreate].LastByte.Count(); n != 300 || f.count(http.MethodPut) != 302 {
		t.Fatalf("%d creates recorded, %d PUTs served; want 300 and 2 containers", n, f.count(http.MethodPut))
	}
	checkFill(t, spec, res.Fill, 300, 4)
	if intervals == 0 {
		t.Error("no interval carried fill buckets")
	}
	cell := res.Cell("fill")
	if len(cell.Fill) != 10 || cell.Fill[9].To != 150 {
		t.Errorf("cell fill %+v", cell.Fill)
	}
}

// TestFillRefusesOtherOperations: a fill run's operations must all create.
func TestFillRefusesOtherOperations(t *testing.T) {
	s := testScenario(t, "[1, 1, 0, 0]", "")
	_, err := Run(context.Background(), Config{Scenario: s, Client: staticClient("http://127.0.0.1:1", 1),
		Fill: &results.FillSpec{Objects: 10, Buckets: 2}})
	if err == nil || !strings.Contains(err.Error(), "create-only") {
		t.Fatalf("err %v", err)
	}
}

// TestTwoAgentsFillOneContainer: two agents each write half of the target
// and scale their own count by two; the merged buckets hold every create.
func TestTwoAgentsFillOneContainer(t *testing.T) {
	f := newFakeSwift(t)
	spec := results.FillSpec{Objects: 200, Buckets: 10}
	// One token for both (the fake server knows only its latest one).
	storage, token, err := NewV1Auth(http.DefaultClient, f.URL+"/auth/v1.0", "test:tester", "testing").Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var outs []io.Reader
	var waits []func() error
	for i, name := range []string{"a1", "a2"} {
		job := agentJob(t, f, name, func(j *Job) {
			j.Auth = AuthSpec{StorageURL: storage, Token: token}
			j.Scenario = json.RawMessage(fillScenarioJSON(1))
			j.DurationS, j.Part, j.Parts, j.Fill = 0, i, 2, &spec
		})
		stdin, keep := io.Pipe() // stays open for the whole run
		defer keep.Close()
		go func() { _, _ = io.WriteString(keep, job) }()
		out, wait := startAgent(context.Background(), stdin)
		outs, waits = append(outs, out), append(waits, wait)
	}
	m := results.MergeStreams(outs, nil)
	for _, w := range waits {
		if err := w(); err != nil {
			t.Fatalf("agent: %v", err)
		}
	}
	if m.Err != nil {
		t.Fatal(m.Err)
	}
	checkFill(t, spec, m.Fill, 200, 2*2)
	if len(f.objects) != 0 {
		t.Errorf("%d objects left after the run", len(f.objects))
	}
}

// TestMergeRefusesFillBucketOutOfRange: a broken stream cannot make the
// merge keep unbounded buckets.
func TestMergeRefusesFillBucketOutOfRange(t *testing.T) {
	line := `{"type":"interval","agent":"x","fill":{"100":{"first_byte":null,"last_byte":null}}}` + "\n" +
		`{"type":"done","agent":"x"}` + "\n"
	m := results.MergeStreams([]io.Reader{strings.NewReader(line)}, nil)
	if m.Err == nil || !strings.Contains(m.Err.Error(), "fill bucket 100") || len(m.Fill) != 0 {
		t.Fatalf("err %v, fill %v", m.Err, m.Fill)
	}
}

// TestRecorderKeepsOnlyTouchedFillBuckets: an interval streams and keeps
// (for reuse) only the buckets it touched, so that a filling run holds the
// total's buckets and those of the last two intervals, whatever the buckets
// and requests.
func TestRecorderKeepsOnlyTouchedFillBuckets(t *testing.T) {
	r := NewRecorder()
	ok := Outcome{Status: http.StatusCreated, FirstByte: time.Millisecond, LastByte: 2 * time.Millisecond}
	for b := range 20 {
		for range 50 {
			r.Record(OpCreate, ok)
			r.RecordFill(b, ok)
		}
		r.Flush(func(_ results.Recording, fill results.FillRecording) {
			if len(fill) != 1 || fill[b] == nil || fill[b].LastByte.Count() != 50 {
				t.Fatalf("interval %d streams buckets %v", b, fill)
			}
		})
		if len(r.spareFill)+len(r.curFill) > 2 {
			t.Fatalf("after interval %d the recorder keeps %d interval buckets", b, len(r.spareFill)+len(r.curFill))
		}
	}
	total := r.TotalFill()
	if len(total) != 20 || total[19].LastByte.Count() != 50 {
		t.Errorf("total buckets %d", len(total))
	}
}

// TestFillMemoryWithinItsBound: a recorder that went through every bucket
// of a 100-bucket fill run holds no more than the spec's MemoryBytes, the
// figure the agent's memory limit adds.
func TestFillMemoryWithinItsBound(t *testing.T) {
	spec := results.FillSpec{Objects: 100000, Buckets: scenario.MaxFillBuckets}
	ok := Outcome{Status: http.StatusCreated, FirstByte: time.Millisecond, LastByte: 2 * time.Millisecond}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := NewRecorder()
	for fill := int64(0); fill < spec.Objects; fill += 7 {
		r.RecordFill(spec.Bucket(fill), ok)
		if fill%100 == 0 { // a few intervals a bucket
			r.Flush(nil)
		}
	}
	r.Flush(nil)
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("a %d-bucket fill recorder holds %d B (bound %d B)", spec.Buckets, held, spec.MemoryBytes())
	if held > spec.MemoryBytes() || len(r.TotalFill()) != spec.Buckets {
		t.Errorf("a %d-bucket fill recorder holds %d B, more than its bound %d B", spec.Buckets, held, spec.MemoryBytes())
	}
	runtime.KeepAlive(r)
}
