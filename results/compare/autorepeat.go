package compare

import (
	"fmt"
	"math"

	"benchbed/results"
)

// RepeatRule is what repeat = "auto" decides by: the U test's level
// Alpha, the smallest change worth finding (Effect, a share of the
// baseline's mean), the Power the test must have to find it before two
// variants are said not to differ, and the most repeats of each (Max).
type RepeatRule struct {
	Alpha  float64
	Effect float64
	Power  float64
	Max    int
}

// Verdict kinds of RepeatVerdict.Kind.
const (
	VerdictMore      = "more"          // another repeat of each
	VerdictSeparated = "separated"     // the U test separates them
	VerdictSame      = "no-difference" // not separated, at the rule's power
	VerdictMax       = "max"           // the most repeats, undecided
)

// RepeatVerdict is repeat = "auto"'s decision on two variants' repeats
// of one workload: another repeat of each, or enough, and why.
type RepeatVerdict struct {
	More  bool    `json:"more"`
	Kind  string  `json:"kind"`
	Why   string  `json:"why"`
	Power float64 `json:"power"` // the test's power to find a change of Effect, at these samples
	Test  *Test   `json:"test,omitempty"`
}

// NextRepeat decides whether two variants' repeats (a, b: req/s or
// capacities, one per repeat) need another repeat under rule r: yes while
// the U test cannot reach alpha yet (fewer than RepeatsNeeded each); no
// once it separates them ("separated at p=..."); no once it does not but
// had at least r.Power to find a change of r.Effect at these samples'
// spread (PowerFor: "no difference of 5% or more at power 0.93"); no at
// r.Max repeats ("max 10 repeats"); otherwise one more.
func NextRepeat(a, b []float64, r RepeatRule) RepeatVerdict {
	n := min(len(a), len(b))
	if need := RepeatsNeeded(r.Alpha); n < need {
		return RepeatVerdict{More: true, Kind: VerdictMore, Why: fmt.Sprintf("%d of the %d repeats the U test needs at alpha %g", n, need, r.Alpha)}
	}
	t := significance(a, b, SamplesRepeats, r.Alpha)
	pw := PowerFor(a, b, r.Alpha, r.Effect)
	v := RepeatVerdict{Test: t, Power: pw}
	switch {
	case t.Significant:
		v.Kind, v.Why = VerdictSeparated, fmt.Sprintf("separated at p=%.3g after %d repeats (%s)", t.P, n, t)
	case pw >= r.Power:
		v.Kind, v.Why = VerdictSame, fmt.Sprintf("no difference of %s or more at power %.2f after %d repeats (%s)",
			results.Percent(r.Effect), pw, n, t)
	case n >= r.Max:
		v.Kind, v.Why = VerdictMax, fmt.Sprintf("max %d repeats reached, not separated (%s), power %.2f for a %s change",
			r.Max, t, pw, results.Percent(r.Effect))
	default:
		v.More, v.Kind = true, VerdictMore
		v.Why = fmt.Sprintf("not separated yet (%s), power %.2f for a %s change, %.2f wanted", t, pw, results.Percent(r.Effect), r.Power)
	}
	return v
}

// PowerFor is the power of the two-sided U test at alpha to find a change
// of effect times mean(a) between samples the size of a and b with
// their pooled spread: that of Student's t test (TPower) at the U test's
// asymptotic efficiency, 3/π of the samples. 1 when neither varies; 0
// when it cannot be had (fewer than 2 of either, a mean of 0).
func PowerFor(a, b []float64, alpha, effect float64) float64 {
	ma, sa := results.MeanSD(a)
	_, sb := results.MeanSD(b)
	na, nb := float64(len(a)), float64(len(b))
	if len(a) < 2 || len(b) < 2 || ma == 0 {
		return 0
	}
	sp := math.Sqrt(((na-1)*sa*sa + (nb-1)*sb*sb) / (na + nb - 2))
	if sp == 0 {
		return 1
	}
	eff := 3 / math.Pi
	return TPower(math.Abs(effect*ma)/sp, na*eff, nb*eff, alpha)
}

// TPower is the power of the two-sided two-sample t test at alpha to
// find a standardized difference d (difference over the common standard
// deviation) with samples of n1 and n2: the normal approximation of the
// noncentral t, (λ - t) / sqrt(1 + t²/2df), with t the Cornish-Fisher
// critical value of Student's t for df = n1+n2-2.
func TPower(d, n1, n2, alpha float64) float64 {
	df := n1 + n2 - 2
	if df <= 0 {
		return 0
	}
	lambda := d / math.Sqrt(1/n1+1/n2)
	z := math.Sqrt2 * math.Erfinv(1-alpha)
	t := z + (z*z*z+z)/(4*df) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*df*df)
	s := math.Sqrt(1 + t*t/(2*df))
	return phi((lambda-t)/s) + phi((-lambda-t)/s)
}

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
