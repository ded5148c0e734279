package telemetry

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// DiskCounters is one block device's line of /proc/diskstats: operations,
// sectors (512 bytes) and milliseconds since boot.
type DiskCounters struct {
	Reads, ReadSectors, ReadMs    uint64
	Writes, WriteSectors, WriteMs uint64
	IOMs                          uint64 // time with operations in flight
}

// ParseDiskstats reads /proc/diskstats, keeping only the devices named in
// want (all when want is nil).
func ParseDiskstats(b []byte, want map[string]bool) (map[string]DiskCounters, error) {
	out := map[string]DiskCounters{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 14 {
			continue
		}
		if want != nil && !want[f[2]] {
			continue
		}
		var v [10]uint64
		for i := range v {
			n, err := strconv.ParseUint(f[i+3], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("/proc/diskstats: %s field %d: %w", f[2], i+4, err)
			}
			v[i] = n
		}
		out[f[2]] = DiskCounters{Reads: v[0], ReadSectors: v[2], ReadMs: v[3],
			Writes: v[4], WriteSectors: v[6], WriteMs: v[7], IOMs: v[9]}
	}
	return out, nil
}

// Rates returns the device's use between c (earlier) and d (later), dt
// seconds apart.
func (c DiskCounters) Rates(d DiskCounters, dt float64) Disk {
	if dt <= 0 || d.Reads < c.Reads || d.Writes < c.Writes || d.IOMs < c.IOMs {
		return Disk{}
	}
	ops := float64(d.Reads - c.Reads + d.Writes - c.Writes)
	out := Disk{Reads: float64(d.Reads-c.Reads) / dt, Writes: float64(d.Writes-c.Writes) / dt,
		ReadMB:  float64(d.ReadSectors-c.ReadSectors) * 512 / mb / dt,
		WriteMB: float64(d.WriteSectors-c.WriteSectors) * 512 / mb / dt,
		Util:    min(100, float64(d.IOMs-c.IOMs)/(dt*1000)*100)}
	if ops > 0 {
		out.Await = float64(d.ReadMs-c.ReadMs+d.WriteMs-c.WriteMs) / ops
	}
	return out
}
