package resultstest

import "benchbed/results"

// FillCell is a finished cell of a fill run of 100 objects a bucket whose
// bucket i has 100 PUTs of last-byte p50 ms[i] milliseconds (p95 twice,
// p99 three times that, mean the p50, first byte half of it), or none when
// ms[i] is 0.
func FillCell(id string, ms ...float64) results.Cell {
	spec := results.FillSpec{Objects: int64(100 * len(ms)), Buckets: len(ms)}
	c := results.Cell{ID: id, Status: results.StatusOK}
	for i, m := range ms {
		b := results.FillBucket{}
		b.From, b.To = spec.Bounds(i)
		if m > 0 {
			b.Count = 100
			b.LastByte = results.Stats{P50: m / 1000, P95: 2 * m / 1000, P99: 3 * m / 1000, Mean: m / 1000}
			b.FirstByte = results.Stats{P50: m / 2000}
		}
		c.Fill = append(c.Fill, b)
	}
	return c
}
