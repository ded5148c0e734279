package plan

import (
	"github.com/hashicorp/hcl/v2"
)

// Service kinds: a Swift server (the default) or any other daemon.
const (
	KindSwift   = "swift"
	KindGeneric = "generic"
)

// Conf formats of a generic service: a plain text/template, or INI that
// its settings overlay key by key as Swift's confs.
const (
	FormatPlain = "plain"
	FormatINI   = "ini"
)

// Generic is a service that is not a Swift server (kind = "generic"): any
// daemon with any conf file, started by systemd or directly by a command
// of the testbed's, checked by a TCP port, an HTTP URL or a command.
type Generic struct {
	Name     string
	Role     string // hosts with this role run it
	Template string // template file, relative to the testbed's directory ("" with Content)
	Content  string // the template inline ("" with Template)
	Format   string // FormatPlain or FormatINI
	Path     string // absolute path of the rendered conf on the host ("": a daemon without one)
	Manager  string // ManagerSystemd or ManagerDirect
	Unit     string // systemd unit (systemd)
	Command  string // the daemon's foreground command line (direct)
	Flags    []string
	Restart  string // override of the restart command
	// Health is "tcp://ADDR:PORT", an http:// or https:// URL (2xx is
	// healthy), or else a command run on the host (exit 0 is healthy). An
	// empty ADDR (tcp://:80, http://:8080/) is each host's address.
	Health     string
	Ports      []int    // TCP ports it listens on; a restart waits until they are free
	AfterStart []string // commands run on the host after every start or restart
	Settings   Settings // what a template reads as .Settings, or the INI overlay
	// Catalog names a conf of Swift's option catalog ("object-server")
	// that checks an INI service's Settings; "" leaves them unchecked.
	Catalog     string
	Unchecked   []string // keys or sections the catalog does not check
	Packages    []string
	PackagesSet bool
	DefRange    hcl.Range
}

// GenericRun is a variant's change to how a generic service runs: flags
// after the service's own, and commands after its own after_start.
type GenericRun struct {
	Flags      []string
	AfterStart []string
	DefRange   hcl.Range
}

// Generic returns the generic service named name, or nil.
func (tb *Testbed) Generic(name string) *Generic {
	for _, g := range tb.Generics {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// FlagsIn lists g's command-line flags in variant v (nil: as declared):
// the service's own, then the variant's.
func (g *Generic) FlagsIn(v *Variant) []string {
	out := append([]string(nil), g.Flags...)
	if v != nil && v.Runs[g.Name] != nil {
		out = append(out, v.Runs[g.Name].Flags...)
	}
	return out
}

// AfterStartIn lists the commands run after g starts in variant v: the
// service's own, then the variant's.
func (g *Generic) AfterStartIn(v *Variant) []string {
	out := append([]string(nil), g.AfterStart...)
	if v != nil && v.Runs[g.Name] != nil {
		out = append(out, v.Runs[g.Name].AfterStart...)
	}
	return out
}
