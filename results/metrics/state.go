package metrics

import (
	"net/url"
	"strconv"
)

// The phases a sweep or a load goes through (State.Phase): a warm-up, the
// measured run, a fault cell's three windows and a capacity search's
// probes.
const (
	PhaseWarmup      = "warmup"
	PhaseRun         = "run"
	PhaseFaultBefore = "fault_before"
	PhaseFaultDuring = "fault_during"
	PhaseFaultAfter  = "fault_after"
	PhaseProbe       = "probe"
	PhaseIdle        = "idle"
)

// PhaseOrder is the phases' index in PhaseOrder's order of a cell, the
// value of the benchbed_phase series (so that a dashboard shades them).
var PhaseOrder = []string{PhaseIdle, PhaseWarmup, PhaseRun, PhaseFaultBefore, PhaseFaultDuring, PhaseFaultAfter, PhaseProbe}

// State is what is running: the run and testbed, the cell and its
// variant, workload and repeat, and its phase with a probe's (or an open
// loop's) offered rate. Every point carries its labels.
type State struct {
	Run, Testbed, Variant, Workload, Cell string
	Repeat                                int
	Phase                                 string
	// Rate is the offered rate (req/s) of an open-loop phase or a
	// capacity probe; 0 for a closed loop.
	Rate float64
}

// labels are the state's labels (empty values left out).
func (s State) labels() []Label {
	rep := ""
	if s.Repeat > 0 {
		rep = strconv.Itoa(s.Repeat)
	}
	return labelSet(nil, LabelRun, s.Run, LabelTestbed, s.Testbed, LabelVariant, s.Variant,
		LabelWorkload, s.Workload, LabelCell, s.Cell, LabelRepeat, rep, LabelPhase, s.Phase)
}

// EndpointLabel is an endpoint URL as a label: scheme, host and path
// only, so that user info (user:password@), a query (?token=...) or a
// fragment never reaches a receiver. A value that does not parse as a URL
// becomes "invalid".
func EndpointLabel(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "invalid"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}
