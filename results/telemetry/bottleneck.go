package telemetry

import "fmt"

// Saturated is the percentage (p95) from which a resource is called
// saturated in the bottleneck line.
const Saturated = 80

// candidate is a resource and how near saturation it came (p95, percent).
type candidate struct {
	pct  float64
	name string
	verb string // "busy", "utilised", or "" for iowait
}

// bottleneck names the resource nearest saturation: host CPU busy, disk
// utilisation or iowait, by their 95th percentiles over the run.
func bottleneck(c []candidate) string {
	if len(c) == 0 {
		return ""
	}
	best := c[0]
	for _, x := range c[1:] {
		if x.pct > best.pct {
			best = x
		}
	}
	line := fmt.Sprintf("%s %.0f%% (p95)", best.name, best.pct)
	if best.verb != "" {
		line = fmt.Sprintf("%s %.0f%% %s (p95)", best.name, best.pct, best.verb)
	}
	if best.pct < Saturated {
		line += fmt.Sprintf(": nothing near saturation (under %d%%)", Saturated)
	}
	return line
}
