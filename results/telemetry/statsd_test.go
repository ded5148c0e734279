package telemetry

import (
	"fmt"
	"net"
	"testing"
	"time"
)

// sendStatsd sends packet to addr over UDP.
func sendStatsd(t *testing.T, addr, packet string) {
	t.Helper()
	c, err := net.Dial("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(packet)); err != nil {
		t.Fatal(err)
	}
}

func TestStatsdReceiver(t *testing.T) {
	s, err := ListenStatsd("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Swift's lines: timers (one per device too), a counter, a sampled timer.
	sendStatsd(t, s.Addr(), "object-server.GET.timing:2.5|ms\nobject-server.GET.timing:7.5|ms\n"+
		"object-server.PUT.d1.timing:10|ms|@0.5\nproxy-server.errors:1|c\ngarbage")
	var got map[string]Timer
	// The datagram is taken once the receiver's goroutine has read it;
	// the minute only bounds a hang.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got = s.Take(); len(got) > 0 {
			break
		}
	}
	want := map[string]Timer{"object-server.GET.timing": {2, 5, 7.5}, "object-server.PUT.d1.timing": {1, 10, 10}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if again := s.Take(); len(again) != 0 {
		t.Errorf("a second Take: %v", again)
	}
}

func TestStatsdBounded(t *testing.T) {
	s := &Statsd{timers: map[string]*timerSum{}}
	for i := range MaxStatsdMetrics + 5 {
		s.Add(fmt.Appendf(nil, "m%d:1|ms", i))
	}
	got := s.Take()
	if len(got) != MaxStatsdMetrics+1 || got["dropped"].N != 5 {
		t.Errorf("%d metrics, dropped %+v", len(got), got["dropped"])
	}
}

func TestSummariseStatsd(t *testing.T) {
	samples := run(PhaseRun, 2, func(i int, s *Sample) {
		s.Statsd = map[string]Timer{"object-server.GET.timing": {N: 1 + i, Mean: float64(10 * (i + 1)), Max: float64(20 * (i + 1))}}
	})
	sum := Summarise(CellInput{Hosts: []HostSamples{{"client1", samples}}, Interval: time.Second})
	// 1 timing of 10 ms, then 2 of 20 ms on average: 3 of 16.7 ms.
	want := []StatsdSummary{{Host: "client1", Metric: "object-server.GET.timing", Timer: Timer{N: 3, Mean: 16.7, Max: 40}}}
	if fmt.Sprint(sum.Statsd) != fmt.Sprint(want) {
		t.Errorf("got %+v, want %+v", sum.Statsd, want)
	}
}

// BenchmarkStatsdAdd measures the receiver's work per timer line.
func BenchmarkStatsdAdd(b *testing.B) {
	s := &Statsd{timers: map[string]*timerSum{}}
	p := []byte("stor1.object-server.GET.timing:1.234|ms")
	for b.Loop() {
		s.Add(p)
	}
}
