package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNewRunLayout(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 11, 29, 23, 1, 2, 0, time.FixedZone("x", 3600))
	r, err := NewRun(root, "swift/stack 2015", now)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, "swift_stack_2015")
	if filepath.Dir(r.Dir) != want {
		t.Fatalf("run dir %s not under %s", r.Dir, want)
	}
	if !strings.HasPrefix(r.ID, "20261129T220102Z-") || len(r.ID) != len("20261129T220102Z-")+6 {
		t.Fatalf("id %q: want UTC time then 6 hex digits", r.ID)
	}
	o, err := Resolve(root, "swift/stack 2015", r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Dir != r.Dir || !o.Started.Equal(now.UTC()) {
		t.Fatalf("Resolve = %+v, want dir %s started %v", o, r.Dir, now.UTC())
	}
	// Directories beside the runs (prefill checkpoints) are no runs.
	if err := os.MkdirAll(filepath.Join(root, "swift_stack_2015", "prefill"), 0o750); err != nil {
		t.Fatal(err)
	}
	l, err := LatestRun(root, "swift/stack 2015")
	if err != nil || l.ID != r.ID {
		t.Fatalf("LatestRun = %v, %v", l, err)
	}
}

func TestRunPathStaysInside(t *testing.T) {
	r, err := NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Path("..", "x"); err == nil {
		t.Fatal("a path leaving the run directory was accepted")
	}
	if err := r.WriteFile("../evil", []byte("x")); err == nil {
		t.Fatal("WriteFile outside the run was accepted")
	}
	d, err := r.CellDir("../../1-normal")
	if err != nil || !strings.HasPrefix(d, r.Dir) {
		t.Fatalf("CellDir = %q, %v", d, err)
	}
}

func TestWriteFileAtomicReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a", SummaryFile)
	for _, s := range []string{"one", "two"} {
		if err := WriteFileAtomic(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "two" {
		t.Fatalf("content %q, %v", b, err)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
}

func TestJournalRoundTripAndResume(t *testing.T) {
	r, err := NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	j, err := r.OpenJournal()
	if err != nil {
		t.Fatal(err)
	}
	steps := []Entry{
		{Step: "run", Cell: "1-normal", Status: StepStarted},
		{Step: "run", Cell: "1-normal", Status: StepOK},
		{Step: "push-conf", Cell: "2-spp1", Host: "stor1", Status: StepOK, Data: map[string]string{"path": "/etc/swift/object-server.conf"}},
		{Step: "run", Cell: "2-spp1", Status: StepFailed, Detail: "health timeout"},
	}
	for _, e := range steps {
		if err := j.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Add(Entry{Step: "run"}); err == nil {
		t.Fatal("an entry without a status was accepted")
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// A crash mid-write leaves a torn last line: ignored.
	p, _ := r.Path(JournalFile)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString(`{"step":"run","cel`)
	_ = f.Close()
	got, err := r.ReadJournal()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(steps) || got[2].Data["path"] != "/etc/swift/object-server.conf" || got[0].Time.IsZero() {
		t.Fatalf("journal read back as %+v", got)
	}
	fin := Finished(got)
	if !fin["1-normal"] || fin["2-spp1"] || len(fin) != 1 {
		t.Fatalf("Finished = %v, want only 1-normal", fin)
	}
}

func TestJournalTornLineInTheMiddle(t *testing.T) {
	in := strings.NewReader("{\"step\":\"a\",\"status\":\"ok\"}\n{bad\n{\"step\":\"b\",\"status\":\"ok\"}\n")
	if _, err := readEntries(in, "j"); err == nil || !strings.Contains(err.Error(), "j:2") {
		t.Fatalf("err = %v, want one naming line 2", err)
	}
}
