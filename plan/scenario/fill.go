package scenario

// Limits of a fill experiment: at most MaxFillBuckets buckets (each holds
// two histograms per agent, so memory is bounded by it) and a target of at
// most MaxFillObjects objects a container.
const (
	MaxFillBuckets = 100
	MaxFillObjects = 1 << 40
)

// CreateOnly reports whether every class a scenario draws from only
// creates: what a fill run needs.
func CreateOnly(s *Scenario) bool {
	for _, p := range s.drawnCrud() {
		if len(p) != 4 || p[0] <= 0 || p[1] > 0 || p[2] > 0 || p[3] > 0 {
			return false
		}
	}
	return true
}
