package results

import (
	"context"
	"errors"
	"fmt"
	"math"

	"benchbed/plan/slo"
)

// Outcomes of a capacity search (SearchResult.Outcome).
const (
	OutcomeCapacity    = "capacity"              // the highest rate meeting the SLO, found and confirmed
	OutcomeUnconfirmed = "unconfirmed"           // found, but its confirming runs missed the SLO
	OutcomeAboveTo     = "above to"              // the SLO holds even at the search's top rate
	OutcomeClientBound = "client-bound"          // the load generator could not offer a rate
	OutcomeNone        = "no rate meets the SLO" // even the lowest rate misses it
	roleStep, roleBis  = "step", "bisect"        // probe roles
	roleConfirm        = "confirm"               // a confirming run
	defaultShortfall   = 0.9                     // achieved/offered under which a probe fails
	defaultClientBusy  = 0.9                     // the load process's CPU share from which a shortfall is its own
	defaultConfirms    = 3                       // confirming runs, each a step lower, before giving up
	defaultResolution  = 0.05                    // hi/lo - 1 at which the bisection stops
	stepFactor         = 2.0                     // the geometric steps' growth
	minResolution      = 0.001                   // a finer resolution would never end
)

// ProbeOutcome is what a probe measured at an offered rate.
type ProbeOutcome struct {
	Total     OpSummary // all operations of the probe, ReqPerS the achieved rate
	DurationS float64
	// ClientCPU is the load generator's own CPU over the probe, as a share
	// of the cores it may use (0 to 1); nil when unknown.
	ClientCPU *float64
}

// Probe runs the load at an open-loop rate (operations per second in
// all) for the search's probe length and returns what it measured. The
// search does not care whether it runs in this process or on agents.
type Probe func(ctx context.Context, rate float64) (ProbeOutcome, error)

// ProbeRecord is one probe of a search, kept whole (docs/results.md).
type ProbeRecord struct {
	Role      string   `json:"role"` // step, bisect or confirm
	Offered   float64  `json:"offered_req_per_s"`
	Achieved  float64  `json:"achieved_req_per_s"`
	DurationS float64  `json:"duration_s"`
	Count     int64    `json:"count"`
	Errors    int64    `json:"errors"`
	ErrorRate float64  `json:"error_rate"`
	FirstByte Stats    `json:"first_byte"`
	LastByte  Stats    `json:"last_byte"`
	ClientCPU *float64 `json:"client_cpu,omitempty"`
	Pass      bool     `json:"pass"`
	// Why says what the SLO's metrics were and, for a failed probe, which
	// limit it missed or that the rate was not achieved.
	Why string `json:"why"`
	// ClientBound says the load generator, not the target, fell short.
	ClientBound bool `json:"client_bound,omitempty"`
}

// SearchResult is a capacity search's answer with every probe behind it.
type SearchResult struct {
	SLO        string  `json:"slo"`
	From       float64 `json:"from"`
	To         float64 `json:"to"`
	Resolution float64 `json:"resolution"`
	// Capacity is the highest offered rate (req/s) that met the SLO; 0
	// when none did or the search could not tell.
	Capacity float64 `json:"capacity_req_per_s"`
	// Achieved is the confirming probe's achieved rate at Capacity.
	Achieved float64       `json:"achieved_req_per_s"`
	Outcome  string        `json:"outcome"`
	Why      string        `json:"why"`
	Probes   []ProbeRecord `json:"probes"`
}

// Search finds the highest open-loop rate in [From, To] whose probe meets
// the SLO: geometric steps (x2) from From until a probe fails, then
// bisection (geometric midpoints) until the rates that passed and failed
// are within Resolution of each other, then a confirming probe at the
// rate found (a step lower each time it misses, up to Confirms times).
type Search struct {
	SLO        slo.SLO
	From, To   float64
	Resolution float64 // hi/lo - 1 at which to stop (0: 5 %)
	Probe      Probe
	// Shortfall: a probe whose achieved rate is under this share of the
	// offered one fails (0: 0.9); when the load generator's CPU was at
	// ClientBusy or more (0: 0.9) the search stops: it is client-bound.
	Shortfall, ClientBusy float64
	Confirms              int               // confirming runs at most (0: 3)
	OnProbe               func(ProbeRecord) // told each probe as it ends (progress); may be nil
}

func (s *Search) check() error {
	switch {
	case s.Probe == nil:
		return errors.New("capacity search: no probe")
	case len(s.SLO) == 0:
		return errors.New("capacity search: an SLO is needed")
	case !(s.From > 0) || !(s.To > s.From):
		return fmt.Errorf("capacity search: want 0 < from < to, not from %g to %g", s.From, s.To)
	case s.Resolution != 0 && (s.Resolution < minResolution || s.Resolution >= 1):
		return fmt.Errorf("capacity search: resolution %s: want between 0.1%% and 100%%", Percent(s.Resolution))
	}
	return nil
}

func (s *Search) defaults() {
	if s.Resolution == 0 {
		s.Resolution = defaultResolution
	}
	if s.Shortfall == 0 {
		s.Shortfall = defaultShortfall
	}
	if s.ClientBusy == 0 {
		s.ClientBusy = defaultClientBusy
	}
	if s.Confirms == 0 {
		s.Confirms = defaultConfirms
	}
}

// probe runs one probe and judges it.
func (s *Search) probe(ctx context.Context, res *SearchResult, role string, rate float64) (ProbeRecord, error) {
	o, err := s.Probe(ctx, rate)
	if err != nil {
		return ProbeRecord{}, fmt.Errorf("probe at %.4g req/s: %w", rate, err)
	}
	p := ProbeRecord{Role: role, Offered: rate, Achieved: o.Total.ReqPerS, DurationS: o.DurationS,
		Count: o.Total.Count, Errors: o.Total.Errors, ErrorRate: o.Total.ErrorRate(),
		FirstByte: o.Total.FirstByte, LastByte: o.Total.LastByte, ClientCPU: o.ClientCPU}
	p.Why = DescribeSLO(s.SLO, o.Total)
	sloErr := CheckSLO(s.SLO, o.Total)
	short := p.Achieved < s.Shortfall*rate
	switch {
	case short && o.ClientCPU != nil && *o.ClientCPU >= s.ClientBusy:
		p.ClientBound = true
		p.Why = fmt.Sprintf("client-bound: achieved %.4g of %.4g req/s offered with the load generator's CPU %s busy; %s",
			p.Achieved, rate, Percent(*o.ClientCPU), p.Why)
	case short:
		p.Why = fmt.Sprintf("achieved %.4g of %.4g req/s offered; %s", p.Achieved, rate, p.Why)
	case sloErr != nil:
		p.Why = "missed: " + joinErrs(sloErr)
	default:
		p.Pass = true
	}
	res.Probes = append(res.Probes, p)
	if s.OnProbe != nil {
		s.OnProbe(p)
	}
	return p, nil
}

// joinErrs writes a joined error on one line.
func joinErrs(err error) string {
	var j interface{ Unwrap() []error }
	if !errors.As(err, &j) {
		return err.Error()
	}
	var out string
	for i, e := range j.Unwrap() {
		if i > 0 {
			out += "; "
		}
		out += e.Error()
	}
	return out
}

// geoMid is the geometric midpoint of lo and hi.
func geoMid(lo, hi float64) float64 { return math.Sqrt(lo * hi) }
