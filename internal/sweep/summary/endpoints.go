package summary

import (
	"benchbed/plan"
	"benchbed/results"
)

// EndpointFigures is what each of w's endpoints served in a run merged
// into m (nil for one endpoint): agent i's recording counted for
// w.AgentEndpoint(i).
func EndpointFigures(w *plan.Workload, m *results.Merged) []results.EndpointSummary {
	urls := make([]string, len(m.Agents))
	for i := range urls {
		urls[i] = w.AgentEndpoint(i)
	}
	return results.SummariseEndpoints(results.EndpointRecordings(urls, m.Agents), m.Duration)
}
