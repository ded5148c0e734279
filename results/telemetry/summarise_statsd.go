package telemetry

import (
	"maps"
	"slices"
)

// summariseStatsd sums one host's statsd timers over its run samples, in
// metric order.
func summariseStatsd(host string, run []Sample) []StatsdSummary {
	sums := map[string]*timerSum{}
	for _, s := range run {
		for name, t := range s.Statsd {
			a := sums[name]
			if a == nil {
				a = &timerSum{}
				sums[name] = a
			}
			a.n, a.sum, a.max = a.n+t.N, a.sum+t.Mean*float64(t.N), max(a.max, t.Max)
		}
	}
	var out []StatsdSummary
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		a := sums[name]
		t := Timer{N: a.n, Max: round(a.max, 1)}
		if a.n > 0 {
			t.Mean = round(a.sum/float64(a.n), 1)
		}
		out = append(out, StatsdSummary{Host: host, Metric: name, Timer: t})
	}
	return out
}
