package plan

// MinAutoRepeat is the fewest repeats of each variant with which
// compare's U test can separate two at alpha 0.05 (compare.RepeatsNeeded,
// whose tests check that the two agree): repeat = "auto" plans that many.
const MinAutoRepeat = 4

// DefaultPower is repeat = "auto"'s power: two variants the U test does
// not separate are said not to differ by min_effect once the test had
// this chance of finding such a change.
const DefaultPower = 0.8

// RepeatAlpha is the significance level repeat = "auto" decides at
// (compare's default).
const RepeatAlpha = 0.05

// Repeats are the repeats of w's cells in tb: the sweep's repeat (both
// lo and hi), or for repeat = "auto" at least MinAutoRepeat planned
// (lo) and up to max_repeat (hi), which the sweep runs in rounds while
// compare's test has not decided.
func (tb *Testbed) Repeats(w *Workload) (lo, hi int) {
	lo = max(tb.Sweep.Repeat, 1)
	if w.AutoRepeat == nil {
		return lo, lo
	}
	lo = max(lo, MinAutoRepeat)
	return lo, max(lo, w.AutoRepeat.Max)
}
