package telemetry

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// CPUTimes is the "cpu" line of /proc/stat: the host's CPU time in clock
// ticks since boot, summed over its cores.
type CPUTimes struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal uint64
}

// total is every tick (guest time is already in user and nice).
func (c CPUTimes) total() uint64 {
	return c.User + c.Nice + c.System + c.Idle + c.IOWait + c.IRQ + c.SoftIRQ + c.Steal
}

// ParseStat reads the aggregate "cpu" line of /proc/stat.
func ParseStat(b []byte) (CPUTimes, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 9 || f[0] != "cpu" {
		return CPUTimes{}, fmt.Errorf("/proc/stat: first line %q is not the cpu line", line)
	}
	var v [8]uint64
	for i := range v {
		n, err := strconv.ParseUint(f[i+1], 10, 64)
		if err != nil {
			return CPUTimes{}, fmt.Errorf("/proc/stat: cpu field %d: %w", i+1, err)
		}
		v[i] = n
	}
	return CPUTimes{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]}, nil
}

// Percent returns the CPU use between c (earlier) and d (later).
func (c CPUTimes) Percent(d CPUTimes) CPU {
	t := float64(d.total() - c.total())
	if t <= 0 || d.total() < c.total() {
		return CPU{}
	}
	pct := func(a, b uint64) float64 { return float64(b-a) / t * 100 }
	idle := pct(c.Idle, d.Idle) + pct(c.IOWait, d.IOWait)
	return CPU{Busy: max(0, 100-idle), User: pct(c.User+c.Nice, d.User+d.Nice),
		System: pct(c.System+c.IRQ+c.SoftIRQ, d.System+d.IRQ+d.SoftIRQ),
		IOWait: pct(c.IOWait, d.IOWait), Steal: pct(c.Steal, d.Steal)}
}

// ParseLoadavg returns the one-minute load of /proc/loadavg.
func ParseLoadavg(b []byte) (float64, error) {
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return 0, fmt.Errorf("/proc/loadavg: empty")
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/loadavg: %w", err)
	}
	return v, nil
}

// ParseMeminfo returns the memory of /proc/meminfo in MB: total, used
// (total minus available) and page cache (Cached plus Buffers).
func ParseMeminfo(b []byte) (Mem, error) {
	kb := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch name {
		case "MemTotal", "MemAvailable", "Cached", "Buffers":
			f := strings.Fields(rest)
			if len(f) == 0 {
				return Mem{}, fmt.Errorf("/proc/meminfo: %s has no value", name)
			}
			v, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return Mem{}, fmt.Errorf("/proc/meminfo: %s: %w", name, err)
			}
			kb[name] = v
		}
	}
	if _, ok := kb["MemTotal"]; !ok {
		return Mem{}, fmt.Errorf("/proc/meminfo: no MemTotal")
	}
	return Mem{Total: kb["MemTotal"] / 1024, Used: (kb["MemTotal"] - kb["MemAvailable"]) / 1024,
		Cache: (kb["Cached"] + kb["Buffers"]) / 1024}, nil
}
