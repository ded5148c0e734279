package results

import (
	"context"
	"fmt"
)

// Run runs the search. An error is a probe that could not run (or ctx
// ended); an SLO that even From misses is an answer (OutcomeNone), with
// the probe behind it.
func (s *Search) Run(ctx context.Context) (*SearchResult, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	s.defaults()
	res := &SearchResult{SLO: s.SLO.String(), From: s.From, To: s.To, Resolution: s.Resolution}
	p, err := s.probe(ctx, res, roleStep, s.From)
	if err != nil {
		return res, err
	}
	switch {
	case p.ClientBound:
		return s.answer(res, OutcomeClientBound, 0, p, "the load generator cannot offer even the lowest rate"), nil
	case !p.Pass:
		return s.answer(res, OutcomeNone, 0, p, "even the lowest rate misses the SLO"), nil
	}
	lo, hi, last, err := s.step(ctx, res, p)
	if err != nil {
		return res, err
	}
	if last.ClientBound {
		return s.clientBound(res, lo, last), nil
	}
	if hi == 0 {
		return s.answer(res, OutcomeAboveTo, lo, last, "the SLO holds at the highest rate searched"), nil
	}
	lo, last, err = s.bisect(ctx, res, lo, hi)
	if err != nil {
		return res, err
	}
	if last.ClientBound {
		return s.clientBound(res, lo, last), nil
	}
	return s.confirm(ctx, res, lo)
}

// step grows the rate geometrically from a passing probe until one fails
// (hi its rate), the top of the range passes (hi 0) or the load
// generator falls short.
func (s *Search) step(ctx context.Context, res *SearchResult, p ProbeRecord) (lo, hi float64, last ProbeRecord, err error) {
	lo, last = p.Offered, p
	for lo < s.To {
		r := min(lo*stepFactor, s.To)
		if last, err = s.probe(ctx, res, roleStep, r); err != nil || last.ClientBound {
			return lo, 0, last, err
		}
		if !last.Pass {
			return lo, r, last, nil
		}
		lo = r
	}
	return lo, 0, last, nil
}

// bisect narrows [lo, hi) (lo passed, hi failed) to the resolution and
// returns the highest rate that passed.
func (s *Search) bisect(ctx context.Context, res *SearchResult, lo, hi float64) (float64, ProbeRecord, error) {
	var last ProbeRecord
	for hi/lo-1 > s.Resolution {
		m := geoMid(lo, hi)
		p, err := s.probe(ctx, res, roleBis, m)
		if err != nil || p.ClientBound {
			return lo, p, err
		}
		if p.Pass {
			lo = m
		} else {
			hi = m
		}
		last = p
	}
	return lo, last, nil
}

// confirm runs the rate found again; when it misses, a step of the
// resolution lower (not under From), up to Confirms times.
func (s *Search) confirm(ctx context.Context, res *SearchResult, rate float64) (*SearchResult, error) {
	var p ProbeRecord
	for i := range s.Confirms {
		r := max(rate/pow(1+s.Resolution, i), s.From)
		var err error
		if p, err = s.probe(ctx, res, roleConfirm, r); err != nil {
			return res, err
		}
		switch {
		case p.ClientBound:
			return s.clientBound(res, r, p), nil
		case p.Pass:
			why := "confirmed"
			if i > 0 {
				why = fmt.Sprintf("confirmed %d steps of %s under the rate found", i, Percent(s.Resolution))
			}
			return s.answer(res, OutcomeCapacity, r, p, why), nil
		}
	}
	return s.answer(res, OutcomeUnconfirmed, rate, p,
		fmt.Sprintf("%d confirming runs missed the SLO: the capacity is not stable at this probe length", s.Confirms)), nil
}

// clientBound answers a search the load generator cut short: the
// capacity is at least the last rate that passed.
func (s *Search) clientBound(res *SearchResult, lo float64, p ProbeRecord) *SearchResult {
	return s.answer(res, OutcomeClientBound, lo, p, fmt.Sprintf(
		"the load generator, not the target, is the limit at %.4g req/s: the capacity is at least %.4g req/s", p.Offered, lo))
}

// answer fills the result's verdict from the probe that decided it.
func (s *Search) answer(res *SearchResult, outcome string, capacity float64, p ProbeRecord, why string) *SearchResult {
	res.Outcome, res.Capacity, res.Why = outcome, capacity, why+" ("+p.Why+")"
	if outcome == OutcomeCapacity || outcome == OutcomeAboveTo || outcome == OutcomeUnconfirmed {
		res.Achieved = p.Achieved
	}
	return res
}

// pow is x to the integer power n.
func pow(x float64, n int) float64 {
	y := 1.0
	for range n {
		y *= x
	}
	return y
}
