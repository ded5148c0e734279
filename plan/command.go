package plan

import (
	"time"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan/outparse"
)

// Parser kinds of a command workload besides outparse's built-in ones.
const (
	ParserRegexp = "regexp" // pattern with named groups, units per group
	ParserJSON   = "json"   // json = { metric = "path" }, units per metric
)

// DefaultCommandTimeout bounds one run of a command workload's copies.
const DefaultCommandTimeout = 10 * time.Minute

// CommandLoad is a workload whose load is a shell command run on its
// client hosts, Users copies at once, each copy's output read by Parser
// (outparse) into figures with units.
type CommandLoad struct {
	Command    string            // run with /bin/sh on the clients
	ParserName string            // a outparse built-in, ParserRegexp or ParserJSON
	Pattern    string            // ParserRegexp's expression
	JSON       map[string]string // ParserJSON's metric -> path
	Units      map[string]string // the custom parser's metric -> unit
	Parser     outparse.Parser   // built from the above at decoding
	Metric     string            // the headline metric the table shows (default outparse.Throughput)
	// Before are commands run before every run of the workload (a cell
	// and its warm-up), on the BeforeOn hosts (default: the clients), one
	// host after another, each command in order: drop the page cache...
	Before   []string
	BeforeOn []string
	Timeout  time.Duration // a run's bound (default DefaultCommandTimeout)
	DefRange hcl.Range
}

// IsCommand reports whether w is a command workload.
func (w *Workload) IsCommand() bool { return w.Command != nil }
