package telemetry

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Sampler takes a host's samples: each one the difference between two
// readings of /proc, over the time between them.
type Sampler struct {
	fs    FS
	host  string
	disks map[string]string // testbed disk -> device
	devs  map[string]bool
	procs *procTable
	prev  reading
	mu    sync.Mutex
	phase string
	now   func() time.Time
	// statsd, when set, gives each sample the timers received meanwhile.
	statsd *Statsd
}

// reading is the counters at one time.
type reading struct {
	t     time.Time
	cpu   CPUTimes
	net   map[string]NetBytes
	disks map[string]DiskCounters
	self  time.Duration // the agent's CPU time
}

// NewSampler resolves the config's disks and returns a sampler that has
// taken its first reading, with a warning for each disk it could not
// resolve (left out of the samples).
func NewSampler(fs FS, c Config) (*Sampler, []string, error) {
	s := &Sampler{fs: fs, host: c.Host, disks: map[string]string{}, devs: map[string]bool{},
		procs: newProcTable(fs, c.Services), phase: PhaseIdle, now: time.Now}
	var warns []string
	for _, d := range c.Disks {
		dev, err := fs.ResolveDisk(d.Path)
		if err != nil {
			warns = append(warns, fmt.Sprintf("disk %s: %v", d.Name, err))
			continue
		}
		s.disks[d.Name], s.devs[dev] = dev, true
	}
	r, err := s.read()
	if err != nil {
		return nil, warns, err
	}
	if _, err := s.procs.round(0); err != nil {
		return nil, warns, err
	}
	s.prev = r
	return s, warns, nil
}

// Disks returns the testbed disks the sampler measures, with their devices.
func (s *Sampler) Disks() map[string]string { return s.disks }

// SetPhase tags the following samples with phase.
func (s *Sampler) SetPhase(phase string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.phase = phase
}

func (s *Sampler) currentPhase() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.phase
}

// Sample reads the counters again and returns the interval since the
// last reading.
func (s *Sampler) Sample() (Sample, error) {
	r, err := s.read()
	if err != nil {
		return Sample{}, err
	}
	p, dt := s.prev, r.t.Sub(s.prev.t).Seconds()
	s.prev = r
	out := Sample{T: r.t.UTC(), Phase: s.currentPhase(), Host: s.host, CPU: round2CPU(p.cpu.Percent(r.cpu)),
		Net: netRates(p.net, r.net, dt), Disks: map[string]Disk{}}
	for name, dev := range s.disks {
		d := p.disks[dev].Rates(r.disks[dev], dt)
		d.Dev = dev
		out.Disks[name] = d
	}
	if out.Procs, err = s.procs.round(dt); err != nil {
		return Sample{}, err
	}
	if out.Load1, err = readWith(s.fs.Proc, "loadavg", ParseLoadavg); err != nil {
		return Sample{}, err
	}
	if out.Mem, err = readWith(s.fs.Proc, "meminfo", ParseMeminfo); err != nil {
		return Sample{}, err
	}
	out.Self.CPU = (r.self - p.self).Seconds() / dt * 100
	if pages, err := readWith(s.fs.Proc, "self/statm", ParseStatm); err == nil {
		out.Self.RSS = float64(pages) * float64(os.Getpagesize()) / mb
	}
	if s.statsd != nil {
		out.Statsd = s.statsd.Take()
	}
	return roundSample(out), nil
}

// read takes the counters that samples are differences of.
func (s *Sampler) read() (reading, error) {
	r := reading{t: s.now()}
	var err error
	if r.cpu, err = readWith(s.fs.Proc, "stat", ParseStat); err != nil {
		return r, err
	}
	if r.net, err = readWith(s.fs.Proc, "net/dev", ParseNetDev); err != nil {
		return r, err
	}
	if len(s.devs) > 0 {
		b, err := os.ReadFile(filepath.Join(s.fs.Proc, "diskstats"))
		if err != nil {
			return r, err
		}
		if r.disks, err = ParseDiskstats(b, s.devs); err != nil {
			return r, err
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		r.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return r, nil
}

// readWith parses the file at root/name with parse.
func readWith[T any](root, name string, parse func([]byte) (T, error)) (T, error) {
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		var zero T
		return zero, err
	}
	return parse(b)
}

// round rounds v to the given number of decimals.
func round(v float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(v*p) / p
}

func round2CPU(c CPU) CPU {
	return CPU{round(c.Busy, 2), round(c.User, 2), round(c.System, 2), round(c.IOWait, 2), round(c.Steal, 2)}
}

// roundSample keeps two decimals of every rate (samples stay short).
func roundSample(s Sample) Sample {
	s.Load1 = round(s.Load1, 2)
	s.Mem = Mem{round(s.Mem.Total, 1), round(s.Mem.Used, 1), round(s.Mem.Cache, 1)}
	for k, n := range s.Net {
		s.Net[k] = NetRate{round(n.Rx, 2), round(n.Tx, 2)}
	}
	for k, d := range s.Disks {
		s.Disks[k] = Disk{d.Dev, round(d.Reads, 2), round(d.Writes, 2), round(d.ReadMB, 2), round(d.WriteMB, 2),
			round(d.Await, 2), round(d.Util, 2)}
	}
	for k, p := range s.Procs {
		s.Procs[k] = Procs{round(p.CPU, 2), round(p.RSS, 1), p.N}
	}
	s.Self = Self{round(s.Self.CPU, 2), round(s.Self.RSS, 1)}
	return s
}
