package results

import (
	"maps"
	"slices"
	"time"
)

// EndpointSummary is what one endpoint (a proxy's auth or storage URL) of
// a workload served in a cell: its agents' operations, req/s, errors and
// latency percentiles, as the cell's Ops and Total are for all of them.
type EndpointSummary struct {
	URL    string               `json:"url"`
	Agents int                  `json:"agents"`
	Ops    map[string]OpSummary `json:"ops"`
	Total  OpSummary            `json:"total"`
}

// EndpointRecording is the merged recording of the agents of one endpoint.
type EndpointRecording struct {
	URL       string
	Agents    int
	Recording Recording
}

// EndpointRecordings groups agents' recordings by endpoint: urls[i] is
// agent i's endpoint, recs[i] its recording; endpoints in order of first
// appearance, each with its agents' recordings merged.
func EndpointRecordings(urls []string, recs []Recording) []EndpointRecording {
	var out []EndpointRecording
	for i, u := range urls {
		j := slices.IndexFunc(out, func(e EndpointRecording) bool { return e.URL == u })
		if j < 0 {
			out = append(out, EndpointRecording{URL: u, Recording: Recording{}})
			j = len(out) - 1
		}
		out[j].Agents++
		if i < len(recs) && recs[i] != nil {
			out[j].Recording.Merge(recs[i])
		}
	}
	return out
}

// SummariseEndpoints summarises each endpoint's recording over the cell's
// duration d, in the given order. It returns nil for fewer than two
// endpoints: the cell's own figures are the one endpoint's.
func SummariseEndpoints(eps []EndpointRecording, d time.Duration) []EndpointSummary {
	if len(eps) < 2 {
		return nil
	}
	out := make([]EndpointSummary, 0, len(eps))
	for _, e := range eps {
		c := Summarise(e.Recording, d)
		out = append(out, EndpointSummary{URL: e.URL, Agents: e.Agents, Ops: c.Ops, Total: c.Total})
	}
	return out
}

// EndpointOps lists the operation types of a cell's endpoints in name order.
func EndpointOps(eps []EndpointSummary) []string {
	set := map[string]bool{}
	for _, e := range eps {
		for op := range e.Ops {
			set[op] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}
