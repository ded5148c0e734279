package telemetry

import (
	"bytes"
	"errors"
	"net"
	"strconv"
	"sync"
)

// statsdReadBuffer is the receiver's socket buffer, for bursts.
const statsdReadBuffer = 4 << 20

// MaxStatsdMetrics bounds the distinct timers kept per interval; timings
// of further metrics are counted in the "dropped" entry.
const MaxStatsdMetrics = 2000

// Timer is one statsd timer over an interval (a sample) or a phase (a
// summary): the timings received, their mean and maximum in ms.
type Timer struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean_ms"`
	Max  float64 `json:"max_ms"`
}

// Statsd receives statsd timers over UDP (Swift's log_statsd_host and
// log_statsd_port point at it) and aggregates them per metric until the
// next Take. Counters and gauges are ignored.
type Statsd struct {
	conn    net.PacketConn
	mu      sync.Mutex
	timers  map[string]*timerSum
	dropped int
}

type timerSum struct {
	n        int
	sum, max float64
}

// ListenStatsd listens on the UDP address addr ("host:port", port 0 for
// any) and receives until Close.
func ListenStatsd(addr string) (*Statsd, error) {
	conn, err := net.ListenPacket("udp", addr)
	if err != nil {
		return nil, err
	}
	if u, ok := conn.(*net.UDPConn); ok {
		_ = u.SetReadBuffer(statsdReadBuffer) // bursts of every server's timers; the kernel may cap it
	}
	s := &Statsd{conn: conn, timers: map[string]*timerSum{}}
	go s.receive()
	return s, nil
}

// Addr is the address the receiver listens on.
func (s *Statsd) Addr() string { return s.conn.LocalAddr().String() }

// Close stops receiving.
func (s *Statsd) Close() error { return s.conn.Close() }

func (s *Statsd) receive() {
	buf := make([]byte, 65536)
	for {
		n, _, err := s.conn.ReadFrom(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err == nil {
			s.Add(buf[:n])
		}
	}
}

// Add takes in one packet: lines of "metric:value|ms[|@rate]".
func (s *Statsd) Add(packet []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, line := range bytes.Split(packet, []byte("\n")) {
		name, rest, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		f := bytes.Split(rest, []byte("|"))
		if len(f) < 2 || string(f[1]) != "ms" {
			continue
		}
		v, err := strconv.ParseFloat(string(f[0]), 64)
		if err != nil {
			continue
		}
		t := s.timers[string(name)]
		if t == nil {
			if len(s.timers) >= MaxStatsdMetrics {
				s.dropped++
				continue
			}
			t = &timerSum{}
			s.timers[string(name)] = t
		}
		t.n, t.sum, t.max = t.n+1, t.sum+v, max(t.max, v)
	}
}

// Take returns the timers received since the last Take, and starts anew.
func (s *Statsd) Take() map[string]Timer {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]Timer, len(s.timers))
	for name, t := range s.timers {
		out[name] = Timer{N: t.n, Mean: round(t.sum/float64(t.n), 2), Max: round(t.max, 2)}
	}
	if s.dropped > 0 {
		out["dropped"] = Timer{N: s.dropped}
	}
	s.timers, s.dropped = map[string]*timerSum{}, 0
	return out
}
