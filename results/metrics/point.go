package metrics

import (
	"slices"
	"strings"
	"time"
)

// The label names a point may carry: the sweep's state (State.labels),
// then what the point is of.
const (
	LabelRun      = "run"
	LabelTestbed  = "testbed"
	LabelVariant  = "variant"
	LabelWorkload = "workload"
	LabelCell     = "cell"
	LabelRepeat   = "repeat"
	LabelPhase    = "phase"
	LabelEndpoint = "endpoint"
	LabelOp       = "op"
	LabelCause    = "cause"
	LabelQuantile = "quantile"
	LabelHost     = "host"
	LabelDevice   = "device"
	LabelService  = "service"
)

// Label is one label of a point.
type Label struct {
	Name, Value string
}

// Point is one value of one series at one time: a metric name and its
// labels (sorted by name, empty values left out).
type Point struct {
	Name   string
	Labels []Label
	Value  float64
	Time   time.Time
}

// Key is the point's series identity: its name and labels.
func (p Point) Key() string {
	var b strings.Builder
	b.WriteString(p.Name)
	for _, l := range p.Labels {
		b.WriteByte(0)
		b.WriteString(l.Name)
		b.WriteByte(0)
		b.WriteString(l.Value)
	}
	return b.String()
}

// Label returns the value of label name ("" when absent).
func (p Point) Label(name string) string {
	for _, l := range p.Labels {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// labelSet builds a point's labels: base (the state's) and extra pairs
// (name, value, name, value...), empty values left out, sorted by name.
func labelSet(base []Label, extra ...string) []Label {
	out := make([]Label, 0, len(base)+len(extra)/2)
	out = append(out, base...)
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] != "" {
			out = append(out, Label{extra[i], extra[i+1]})
		}
	}
	slices.SortFunc(out, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	return out
}
