package telemetry

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// NetBytes is one interface's received and sent bytes since boot.
type NetBytes struct{ Rx, Tx uint64 }

// ParseNetDev reads /proc/net/dev: bytes per interface, loopback left out
// (a host talking to itself is not network traffic).
func ParseNetDev(b []byte) (map[string]NetBytes, error) {
	out := map[string]NetBytes{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.Contains(name, "|") {
			continue
		}
		name = strings.TrimSpace(name)
		f := strings.Fields(rest)
		if len(f) < 16 {
			return nil, fmt.Errorf("/proc/net/dev: %s: %d fields, want 16", name, len(f))
		}
		rx, err1 := strconv.ParseUint(f[0], 10, 64)
		tx, err2 := strconv.ParseUint(f[8], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("/proc/net/dev: %s: bad byte counts %q %q", name, f[0], f[8])
		}
		if name != "lo" {
			out[name] = NetBytes{Rx: rx, Tx: tx}
		}
	}
	return out, nil
}

// netRates returns the MB/s of every interface in both a and b over dt
// seconds.
func netRates(a, b map[string]NetBytes, dt float64) map[string]NetRate {
	out := map[string]NetRate{}
	for name, nb := range b {
		na, ok := a[name]
		if !ok || nb.Rx < na.Rx || nb.Tx < na.Tx {
			continue
		}
		out[name] = NetRate{Rx: float64(nb.Rx-na.Rx) / mb / dt, Tx: float64(nb.Tx-na.Tx) / mb / dt}
	}
	return out
}

// mb is the bytes of a MB (MiB).
const mb = 1 << 20
