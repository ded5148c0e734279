package results

// Figure is one figure of a command workload's cell (a outparse parser's
// metric, "throughput" in MB/s first of all): its value over the copies
// that ran at once (summed for rates, sizes and counts, averaged for
// times), its unit, and each copy's own figure.
type Figure struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
	// PerCopy is each copy's figure, in copy order.
	PerCopy []float64 `json:"per_copy,omitempty"`
	// How says how the copies were combined: "sum" or "mean".
	How string `json:"how,omitempty"`
}
