package results

import "fmt"

// AverageFill averages the fill buckets of a cell's repeats (those that
// finished, "ok", with fill buckets): per bucket, the operations and errors
// summed, each latency statistic the mean of the repeats that had an
// operation in it (not merged histograms, as the repeat table). It returns
// the buckets and the repeats they average; the repeats must share their
// buckets.
func AverageFill(cells []Cell) ([]FillBucket, int, error) {
	var out []FillBucket
	var n int
	var fb, lb [][]Stats // by bucket: each repeat's first and last byte
	for _, c := range cells {
		if !c.OK() || len(c.Fill) == 0 {
			continue
		}
		if n == 0 {
			out = make([]FillBucket, len(c.Fill))
			fb, lb = make([][]Stats, len(c.Fill)), make([][]Stats, len(c.Fill))
		}
		if err := sameBuckets(out, c.Fill, n); err != nil {
			return nil, 0, fmt.Errorf("cell %s: %w", c.ID, err)
		}
		n++
		for i, b := range c.Fill {
			out[i].From, out[i].To = b.From, b.To
			out[i].Count += b.Count
			out[i].Errors += b.Errors
			if b.Count > 0 {
				fb[i], lb[i] = append(fb[i], b.FirstByte), append(lb[i], b.LastByte)
			}
		}
	}
	for i := range out {
		out[i].FirstByte, out[i].LastByte = MeanStats(fb[i]), MeanStats(lb[i])
	}
	return out, n, nil
}

// sameBuckets checks that b has the buckets of the repeats seen so far.
func sameBuckets(avg, b []FillBucket, seen int) error {
	if seen == 0 {
		return nil
	}
	if len(b) != len(avg) {
		return fmt.Errorf("%d fill buckets, the other repeats %d", len(b), len(avg))
	}
	for i := range b {
		if b[i].From != avg[i].From || b[i].To != avg[i].To {
			return fmt.Errorf("fill bucket %d is %d..%d, the other repeats' %d..%d", i, b[i].From, b[i].To, avg[i].From, avg[i].To)
		}
	}
	return nil
}

// MeanStats averages s field by field (all zero for none): the repeats'
// statistics of a table row.
func MeanStats(s []Stats) Stats {
	var m Stats
	for _, x := range s {
		m.Min, m.Max, m.Mean, m.StdDev = m.Min+x.Min, m.Max+x.Max, m.Mean+x.Mean, m.StdDev+x.StdDev
		m.P50, m.P95, m.P99, m.P999 = m.P50+x.P50, m.P95+x.P95, m.P99+x.P99, m.P999+x.P999
	}
	if len(s) == 0 {
		return m
	}
	n := float64(len(s))
	for _, p := range []*float64{&m.Min, &m.Max, &m.Mean, &m.StdDev, &m.P50, &m.P95, &m.P99, &m.P999} {
		*p /= n
	}
	return m
}

// FillTarget is the fill target of buckets: the last one's end.
func FillTarget(buckets []FillBucket) int64 {
	if len(buckets) == 0 {
		return 0
	}
	return buckets[len(buckets)-1].To
}
