package faults

import (
	"fmt"
	"regexp"

	"benchbed/plan"
	"benchbed/remote"
)

// Target is one fault resolved on one host: everything its scripts act on.
type Target struct {
	ID      string      // unique per fault and host in a run ("f0-stor1"): names state files, cgroups, rules
	Host    string      // the host's name, for messages
	Address string      // the host's address (the interface of slow_link; the ring device's IP)
	Fault   *plan.Fault // what to do
	Service Service     // slow_disk, stop, pause: the service acted on
	Disks   []Disk      // slow_disk, fail_disk, rebalance
	Ports   []int       // partition: the TCP ports dropped
	Ring    Ring        // rebalance: the builder's files
}

// Service is a service as its host runs it.
type Service struct {
	Name    string // the service's name, for messages
	Manager string // plan.ManagerSystemd, plan.ManagerSwiftInit or plan.ManagerDirect
	Unit    string // the systemd unit or swift-init server
	Conf    string // its conf: swift-init's processes are those whose command line holds it
	PidFile string // direct: the pid file of its process group
	Start   string // direct: the script that starts it (the sweep's), run by a stop's undo
}

// Disk is one ring device on its host.
type Disk struct {
	Name   string // the ring device name
	Device string // its block device
	Mount  string // its mount point, /srv/node/<Name>
}

// Ring is a ring builder's files on the builder host.
type Ring struct {
	Name    string // "object", "object-1", ...
	Dir     string // where the builder and ring files are (/etc/swift)
	Device  string // the device's search value, "IP/NAME"
	Weight  float64
	Builder string // the builder host's name (the target's Host runs the scripts)
}

// Scripts are a fault's four scripts on one host.
type Scripts struct {
	Probe string // changes nothing; exits non-zero naming host and mechanism when the host cannot apply the fault
	Apply string // applies it (saving what Undo needs in StateDir first)
	Undo  string // undoes it; safe to run twice, and where Apply never ran
	Check string // exits non-zero, saying what is left, unless the fault is undone
}

// Build returns t's scripts, or an error naming host and fault when t
// lacks what its kind needs.
func Build(t Target) (Scripts, error) {
	if t.Fault == nil {
		return Scripts{}, fmt.Errorf("%s: no fault", t.Host)
	}
	if !validID.MatchString(t.ID) {
		return Scripts{}, fmt.Errorf("%s: fault id %q must be letters, digits and -", t.Host, t.ID)
	}
	var s Scripts
	var err error
	switch t.Fault.Kind {
	case plan.FaultSlowDisk:
		s, err = slowDisk(t)
	case plan.FaultFailDisk:
		s, err = failDisk(t)
	case plan.FaultStop:
		s, err = stop(t)
	case plan.FaultPause:
		s, err = pause(t)
	case plan.FaultPartition:
		s, err = partition(t)
	case plan.FaultSlowLink:
		s, err = slowLink(t)
	case plan.FaultRebalance:
		s, err = rebalance(t)
	default:
		err = fmt.Errorf("unknown fault kind %q", t.Fault.Kind)
	}
	if err != nil {
		return Scripts{}, fmt.Errorf("%s: %s fault: %w", t.Host, t.Fault.Kind, err)
	}
	return s.withPrologue(t), nil
}

// validID is what a fault id may be: it names files, cgroups and chains.
var validID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,23}$`)

// withPrologue starts every script with set -u, the host's name for
// messages and the state files' paths (statePrelude: undo and check find
// an earlier version's state in OldStateDir too).
func (s Scripts) withPrologue(t Target) Scripts {
	pro := fmt.Sprintf("set -u\nhost=%s\nid=%s\n", remote.Quote(t.Host), remote.Quote(t.ID))
	cur, old := pro+statePrelude(StateParent, StateDir, ""), pro+statePrelude(StateParent, StateDir, OldStateDir)
	s.Probe, s.Apply, s.Undo, s.Check = cur+s.Probe, cur+s.Apply, old+s.Undo+oldDirGone, old+s.Check
	return s
}

// oldDirGone removes OldStateDir once it is empty (after an undo there),
// keeping the undo's status as $? without exiting (the sweep runs a check
// after it in the same script).
const oldDirGone = "\nrc=$?\nrmdir " + OldStateDir + " 2>/dev/null\n(exit $rc)\n"

// fail is the shell that says "host: kind: msg" on stderr and exits 1.
func fail(kind, msg string) string {
	return fmt.Sprintf(`echo "$host: %s: %s" >&2; exit 1`, kind, msg)
}
