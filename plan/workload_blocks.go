package plan

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan/slo"
)

// Defaults of the runs that stop by themselves.
const (
	DefaultPrecision   = 0.02             // duration = "auto": the confidence interval of req/s within 2 %
	DefaultMaxDuration = time.Hour        // duration = "auto": the longest run
	DefaultMaxWarmup   = 2 * time.Minute  // warmup = "auto": the longest warm-up
	DefaultMaxRepeat   = 10               // repeat = "auto": the most repeats
	DefaultMinEffect   = 0.05             // repeat = "auto": a change under 5 % is no difference
	DefaultProbe       = 20 * time.Second // a search's probe length
	DefaultResolution  = 0.05             // a search stops when passed and failed rates are 5 % apart
)

// AutoDuration is a workload's duration = "auto": its run ends once the
// batch-means 95 % confidence interval of its per-second req/s is within
// Precision of the mean (results.Precision), or at Max.
type AutoDuration struct {
	Precision float64
	Max       time.Duration
}

// Warmup is a workload's own warm-up (instead of the sweep's): a fixed
// Duration, or with Auto until req/s and p99 per second are steady
// (results.Steady), at most Max.
type Warmup struct {
	Auto     bool
	Duration time.Duration
	Max      time.Duration
}

// AutoRepeat is a workload's repeat = "auto": repeats are added until
// compare's test separates the variants or, not separating them, had
// Power to find a change of Effect or more (compare.NextRepeat), at most
// Max (Testbed.Repeats).
type AutoRepeat struct {
	Max    int
	Effect float64 // a share: 0.05 is 5 %
	Power  float64 // a share: 0.8
}

// Search is a workload's search block: find the highest open-loop rate
// in [From, To] whose probe of Probe meets the SLO, to Resolution.
type Search struct {
	SLO        slo.SLO
	From, To   float64 // requests/s in all
	Probe      time.Duration
	Resolution float64 // a share: 0.05 is 5 %
	DefRange   hcl.Range
}

// Threshold is one of a workload's threshold blocks: a regression gate
// compare evaluates on the merged cells of a baseline and a candidate.
type Threshold struct {
	slo.Threshold
	DefRange hcl.Range
}

// Fill is a workload's fill block: PUTs into the scenario's containers from
// empty until each holds ContainerObjects objects, their latency reported
// by the containers' fill in Buckets equal buckets (docs/results.md).
type Fill struct {
	ContainerObjects int64
	Buckets          int
	DefRange         hcl.Range
}

// DefaultFillBuckets is a fill block's buckets when it gives none: 10 %
// each.
const DefaultFillBuckets = 10

// AutoLines describes the workload's search, runs that stop by
// themselves and thresholds, one line each, for `benchbed plan`.
func (w *Workload) AutoLines() []string {
	var out []string
	if s := w.Search; s != nil {
		out = append(out, fmt.Sprintf("search: the highest rate from %g to %g req/s meeting %s, probes of %s, resolution %s, then a confirming run",
			s.From, s.To, s.SLO, slo.ShortDuration(s.Probe), slo.Percent(s.Resolution)))
	}
	if wu := w.Warmup; wu != nil && wu.Auto {
		out = append(out, "warmup auto: until req/s and p99 per second are steady, at most "+slo.ShortDuration(wu.Max))
	} else if wu != nil {
		out = append(out, "warmup "+slo.ShortDuration(wu.Duration))
	}
	if a := w.AutoDuration; a != nil {
		out = append(out, fmt.Sprintf("duration auto: until req/s is known within %s (95 %% confidence, batch means), at most %s",
			slo.Percent(a.Precision), slo.ShortDuration(a.Max)))
	}
	if r := w.AutoRepeat; r != nil {
		out = append(out, fmt.Sprintf("repeat auto: until compare's U test separates the variants (p <= %g) or, not separating them, had %s power to find a change of %s or more, at most %d repeats",
			RepeatAlpha, slo.Percent(r.Power), slo.Percent(r.Effect), max(r.Max, MinAutoRepeat)))
	}
	for _, t := range w.Thresholds {
		out = append(out, "threshold: fail if "+t.String()+" (and significant)")
	}
	return out
}
