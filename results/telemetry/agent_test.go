package telemetry

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunAgent runs the agent on this machine at 100 ms: a ready line,
// samples tagged with the phases sent, and an end when stdin closes.
func TestRunAgent(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- RunAgent(context.Background(), HostFS, inR, outW); outW.Close() }()
	send := func(v any) {
		b, _ := json.Marshal(v)
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	send(Config{Host: "here", IntervalMs: 100, Disks: []DiskSpec{{Name: "tmp", Path: t.TempDir()}},
		Services: []ServiceSpec{{Name: "test", Match: []string{filepath.Base(os.Args[0])}}}})
	sc := bufio.NewScanner(outR)
	if !sc.Scan() {
		t.Fatal("no ready line")
	}
	var ready Ready
	if err := json.Unmarshal(sc.Bytes(), &ready); err != nil || ready.Type != "ready" || ready.Services["test"] != 1 {
		t.Fatalf("ready line %s (%v)", sc.Bytes(), err)
	}
	send(Control{Phase: PhaseRun})
	time.Sleep(550 * time.Millisecond)
	send(Control{Phase: PhaseIdle})
	time.Sleep(150 * time.Millisecond)
	inW.Close()
	phases := map[string]int{}
	var order []string
	for sc.Scan() {
		var s Sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("line %s: %v", sc.Bytes(), err)
		}
		phases[s.Phase]++
		if len(order) == 0 || order[len(order)-1] != s.Phase {
			order = append(order, s.Phase)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// 550 ms of run at 100 ms: five whole intervals and the one the
	// phase change cut.
	if n := phases[PhaseRun]; n < 5 || n > 7 || strings.Join(order, ",") != "run,idle" && strings.Join(order, ",") != "idle,run,idle" {
		t.Errorf("phases %v in order %v: want 6 (within one) run samples between idle ones", phases, order)
	}
}

func TestRunAgentBadConfig(t *testing.T) {
	var out bytes.Buffer
	err := RunAgent(context.Background(), HostFS, strings.NewReader(`{"interval_ms":5}`+"\n"), &out)
	if err == nil || !strings.Contains(out.String(), `"type":"error"`) || !strings.Contains(out.String(), "interval_ms 5") {
		t.Errorf("err %v, out %s", err, out.String())
	}
}

// BenchmarkSampleRound measures one sampling round of the agent on this
// machine: /proc's host files, one disk and two services.
func BenchmarkSampleRound(b *testing.B) {
	s, _, err := NewSampler(HostFS, Config{Disks: []DiskSpec{{Name: "tmp", Path: b.TempDir()}},
		Services: []ServiceSpec{{Name: "test", Match: []string{filepath.Base(os.Args[0])}},
			{Name: "object", Match: []string{"swift-object-server"}}}})
	if err != nil {
		b.Fatal(err)
	}
	enc := json.NewEncoder(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		smp, err := s.Sample()
		if err != nil {
			b.Fatal(err)
		}
		if err := enc.Encode(smp); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRunAgentStatsd: with statsd_addr, the agent receives timers and puts
// them in the next sample.
func TestRunAgentStatsd(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = RunAgent(context.Background(), HostFS, inR, outW); outW.Close() }()
	defer inW.Close()
	go func() { _, _ = inW.Write([]byte(`{"interval_ms":100,"statsd_addr":"127.0.0.1:0"}` + "\n")) }()
	sc := bufio.NewScanner(outR)
	var ready Ready
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &ready) != nil || ready.Statsd == "" {
		t.Fatalf("ready line %s", sc.Bytes())
	}
	sendStatsd(t, ready.Statsd, "proxy-server.GET.timing:4|ms")
	for i := 0; i < 50 && sc.Scan(); i++ {
		var s Sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		if s.Statsd["proxy-server.GET.timing"] == (Timer{N: 1, Mean: 4, Max: 4}) {
			return
		}
	}
	t.Error("no sample carried the timer sent")
}
