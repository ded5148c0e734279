package plan

import (
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Fault kinds a variant's fault block may name (plan/LANGUAGE.md, "Faults").
const (
	FaultSlowDisk  = "slow_disk" // the disk's block device throttled for the storage servers
	FaultFailDisk  = "fail_disk" // the disk unmounted (mount_check answers 507), then mounted back
	FaultStop      = "stop"      // a service stopped on its hosts, then started
	FaultPause     = "pause"     // a service's processes frozen, then resumed
	FaultPartition = "partition" // a host's Swift ports dropped, then opened
	FaultSlowLink  = "slow_link" // a host's interface rate-limited (tc tbf), then freed
	FaultRebalance = "rebalance" // a ring device re-weighted, rebalanced and pushed, then the original rings back
)

// FaultKinds lists every fault kind, in the order the language describes them.
var FaultKinds = []string{FaultSlowDisk, FaultFailDisk, FaultStop, FaultPause, FaultPartition, FaultSlowLink, FaultRebalance}

// How a stop or pause fault acts on its service.
const (
	HowManager = "manager" // stop: systemctl stop / swift-init stop; start back the same way
	HowKill    = "kill"    // stop: SIGKILL to the service's processes; started back by its manager
	HowSignal  = "signal"  // pause: SIGSTOP, resumed with SIGCONT
	HowFreezer = "freezer" // pause: the cgroup freezer (systemctl freeze on systemd hosts)
)

// Fault is one fault block of a variant: what is done to which hosts, from
// At seconds into the measured run for For (ToEnd: until the run ends),
// then undone. Its targets are resolved at decoding: Hosts are names even
// when the block gave a role and a count.
type Fault struct {
	Kind     string
	Hosts    []string // the target hosts, resolved (role + count: the first count hosts of the role)
	Role     string   // the role the block named instead of hosts ("" when it named hosts)
	Disks    []string // slow_disk, fail_disk, rebalance: ring device names on every target host
	Services []string // the services acted on (slow_disk, stop, pause; partition: whose ports)
	At       time.Duration
	For      time.Duration // 0 with ToEnd
	ToEnd    bool          // for = "end": undone when the run ends

	// slow_disk: the limits, 0 = not limited (at least one is set).
	ReadBytesPerS, WriteBytesPerS, ReadIOPS, WriteIOPS int64
	// slow_link: the tc rate ("10mbit"), and the interface ("" = the one
	// that holds the host's address, found on the host).
	Rate      string
	Interface string
	// stop and pause: HowManager/HowKill or HowSignal/HowFreezer.
	How string
	// partition: the ports dropped (nil = every port of the host's Swift
	// services, from the variant's ring layout and binds).
	Ports []int
	// rebalance: the ring, and the new weight of its device Disks[0] on Hosts[0].
	Ring   string
	Weight float64

	DefRange hcl.Range
}

// End returns when f is undone, counted from the run's start, for a run
// of duration run.
func (f *Fault) End(run time.Duration) time.Duration {
	if f.ToEnd {
		return run
	}
	return f.At + f.For
}

// HasFaults reports whether the variant applies any fault.
func (v *Variant) HasFaults() bool { return v != nil && len(v.Faults) > 0 }
