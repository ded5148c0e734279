package workload

import "math"

// zipfMaxRanks bounds the ranks the Zipf fit reads off the sketch: the
// counts the sketch is surest of.
const zipfMaxRanks = 1000

// fitPopularity reads the popularity off the sketches.
func (f *Fitter) fitPopularity() Popularity {
	p := Popularity{Objects: math.Round(f.objects.estimate()), Containers: math.Round(f.conts.estimate())}
	ranked := f.reads.ranked()
	for i, op := range Ops {
		if op == "GET" || op == "HEAD" {
			p.Reads += f.status[i][2]
		}
	}
	for _, c := range ranked[:min(len(ranked), 10)] {
		p.Top = append(p.Top, TopItem{Name: f.objectName(c.key), Reads: c.count})
	}
	var acc int64
	next := 1
	for i, c := range ranked {
		acc += c.count
		if i+1 == next && p.Reads > 0 {
			p.TopShare = append(p.TopShare, Share{N: next, Percent: round3(100 * float64(acc) / float64(p.Reads))})
			next *= 10
		}
	}
	p.Zipf, p.ZipfRanks = zipfFit(ranked, len(ranked) < f.opts.TopK)
	return p
}

// zipfFit fits log(count) = c - s log(rank) by least squares over the
// ranks whose counts the sketch holds surely (count - err above a tenth of
// the count, and at least 10), up to zipfMaxRanks: s is the exponent. When
// the sketch held every key (exact), every rank with 10 reads or more counts.
func zipfFit(ranked []counter, exact bool) (float64, int) {
	var sx, sy, sxx, sxy float64
	n := 0
	for i, c := range ranked {
		if i >= zipfMaxRanks || c.count < 10 || (!exact && float64(c.count-c.err) < 0.9*float64(c.count)) {
			break
		}
		x, y := math.Log(float64(i+1)), math.Log(float64(c.count))
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
		n++
	}
	if n < 3 {
		return 0, n
	}
	den := float64(n)*sxx - sx*sx
	if den == 0 {
		return 0, n
	}
	s := -(float64(n)*sxy - sx*sy) / den
	return round3(math.Max(s, 0)), n
}
