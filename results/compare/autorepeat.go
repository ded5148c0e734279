package compare

import (
	"fmt"
	"math"

	"benchbed/results"
)

// RepeatVerdict is repeat = "auto"'s decision on two variants' repeats
// of one workload: another repeat of each, or enough, and why.
type RepeatVerdict struct {
	More bool   `json:"more"`
	Why  string `json:"why"`
	Test *Test  `json:"test,omitempty"`
}

// NextRepeat decides whether two variants' req/s repeats (a, b) need
// another repeat: not while the U test cannot yet reach alpha (fewer
// than RepeatsNeeded), not once it separates them, not once the 95 %
// confidence interval of the relative change (Welch's) lies within
// ±effect (they do not differ by effect or more), and not at max repeats;
// otherwise one more.
func NextRepeat(a, b []float64, alpha, effect float64, max int) RepeatVerdict {
	n := min(len(a), len(b))
	if need := RepeatsNeeded(alpha); n < need {
		return RepeatVerdict{More: true, Why: fmt.Sprintf("%d of the %d repeats the U test needs at alpha %g", n, need, alpha)}
	}
	t := significance(a, b, SamplesRepeats, alpha)
	if t.Significant {
		return RepeatVerdict{Why: "separated (" + t.String() + ")", Test: t}
	}
	lo, hi, ok := relativeChangeCI(a, b)
	if ok && lo > -effect && hi < effect {
		return RepeatVerdict{Why: fmt.Sprintf("no difference of %s or more: the change lies in %+.1f%% .. %+.1f%% (95 %%), %s",
			results.Percent(effect), lo*100, hi*100, t), Test: t}
	}
	if n >= max {
		return RepeatVerdict{Why: fmt.Sprintf("max %d repeats reached, not separated (%s)", max, t), Test: t}
	}
	return RepeatVerdict{More: true, Why: "not separated yet (" + t.String() + ")", Test: t}
}

// relativeChangeCI is Welch's 95 % confidence interval of mean(b)/mean(a) - 1
// (the difference of means over mean(a)); false when it cannot be had.
func relativeChangeCI(a, b []float64) (lo, hi float64, ok bool) {
	ma, sa := results.MeanSD(a)
	mb, sb := results.MeanSD(b)
	if ma == 0 || len(a) < 2 || len(b) < 2 {
		return 0, 0, false
	}
	va, vb := sa*sa/float64(len(a)), sb*sb/float64(len(b))
	se := math.Sqrt(va + vb)
	df := 1e9
	if se > 0 {
		df = (va + vb) * (va + vb) / (va*va/float64(len(a)-1) + vb*vb/float64(len(b)-1))
	}
	h := results.StudentT975(int(df)) * se
	d := mb - ma
	return (d - h) / ma, (d + h) / ma, true
}
