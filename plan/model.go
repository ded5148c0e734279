package plan

import (
	"encoding/json"
	"time"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan/lang"
)

// The types in this file are the decoded, validated testbed that every other
// part of benchbed reads. Decoding (decode*.go) fills them; nothing else
// writes them.

// Service managers a service block may name.
const (
	ManagerSystemd   = "systemd"    // systemctl restart <unit>
	ManagerSwiftInit = "swift-init" // swift-init <server> restart (source installs)
	ManagerDirect    = "direct"     // the daemon started detached with a pid file
)

// Testbed is one decoded testbed file.
type Testbed struct {
	Name        string // the testbed block's label
	Description string // free text
	// SwiftVersion is the Swift release whose option catalog checks the
	// settings (the testbed block's swift_version; "" = any release
	// benchbed carries a catalog of), SwiftVersionRange where it was given.
	SwiftVersion      string
	SwiftVersionRange hcl.Range
	// SettingsCheck is what checking the settings against the catalog
	// found beside errors and warnings, for plan (settings_check.go).
	SettingsCheck SettingsCheck
	File          string                    // path of the file as given
	Sources       []string                  // every file of the testbed: File, then what it includes, in reading order
	Variables     map[string]*lang.Variable // by name
	SSH           SSH                       // connection defaults
	Hosts         []*Host                   // in declaration order
	Rings         []*Ring                   // in declaration order
	Policies      []*Policy                 // policy blocks, by index (none: see StoragePolicies)
	Services      []*Service                // in declaration order
	Generics      []*Generic                // services of kind "generic", in declaration order
	Variants      []*Variant                // expanded (for_each), in declaration order
	Workloads     []*Workload               // expanded (for_each: one per axis point), in declaration order
	Prefill       *Prefill                  // nil when the file has no prefill block
	Sweep         Sweep                     // defaults when the file has no sweep block
	Telemetry     Telemetry                 // defaults (on, 1 s) when the file has no telemetry block
	Metrics       Metrics                   // where a sweep streams its figures (none without a metrics block)
	Sensitive     []string                  // values of sensitive variables, to mask in output
	DefRange      hcl.Range                 // the testbed block
	Files         map[string]*hcl.File      // parsed sources, for diagnostics
}

// SSH holds the testbed's connection defaults; they take precedence over
// ~/.ssh/config.
type SSH struct {
	User              string        // login user ("" = ssh_config or current user)
	Port              int           // 0 = ssh_config or 22
	IdentityFiles     []string      // private keys to offer
	KnownHosts        []string      // known_hosts files ("" = ~/.ssh/known_hosts)
	ProxyJump         string        // jump host, OpenSSH syntax
	Become            bool          // run privileged commands through sudo
	Parallelism       int           // hosts worked on at once (default 32)
	ConnectTimeout    time.Duration // TCP connect and handshake each (default 10s)
	AcceptNewHostKeys bool          // record unknown host keys (LoadOptions.AcceptNewHostKeys, never a file)
	Config            string        // ssh_config file ("" = ~/.ssh/config)
}

// Host is one machine of the lab.
type Host struct {
	Name     string
	Address  string   // IP or DNS name that services bind to and the ring uses
	Port     int      // SSH port (0 = from SSH)
	User     string   // SSH user ("" = from SSH)
	Roles    []string // e.g. proxy, object, container, account, client
	Hardware []Fact   // free-form facts in declaration order
	Disks    []*DiskGroup
	// Packages, when PackagesSet, is the whole list of packages setup
	// installs on the host, instead of what its services and disks need.
	Packages    []string
	PackagesSet bool
	DefRange    hcl.Range
}

// HasRole reports whether h has the role r.
func (h *Host) HasRole(r string) bool {
	for _, x := range h.Roles {
		if x == r {
			return true
		}
	}
	return false
}

// DiskGroup returns the host's disk group named name, or nil.
func (h *Host) DiskGroup(name string) *DiskGroup {
	for _, g := range h.Disks {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// Fact is one hardware fact, such as cpu = "12x E5-2620".
type Fact struct {
	Key, Value string
}

// DiskGroup is a named set of disks of one host (disks "object" {...}).
type DiskGroup struct {
	Name     string
	Disks    []Disk
	DefRange hcl.Range
}

// Disk is one device of a disk group. Without a Device it is a directory
// under the devices root (/srv/node/<Name>).
type Disk struct {
	Name       string // the ring device name and directory under /srv/node
	Device     string // block device path, "" for a directory disk
	Filesystem string // e.g. "xfs" or "ext4" when Format is true
	Format     bool   // setup may mkfs and mount Device
	Force      bool   // format = "force": setup may format a device holding a filesystem it did not make
	Weight     float64
}

// Ring is one Swift ring: account, container, object or object-N.
type Ring struct {
	Name         string // "account", "container", "object", "object-1", ...
	PartPower    int
	Replicas     float64
	MinPartHours int
	Disks        string // the disk group name whose disks are the ring's devices
	Role         string // the host role that serves it (derived from Name)
	Port         int    // the port of every device when one port per host
	PortBase     int    // first port when one port per disk (Port+1 when unset)
	Builder      string // host that keeps the builder files ("" = first proxy)
	DefRange     hcl.Range
}

// Service is one Swift (or other) server configured on the hosts of a role.
type Service struct {
	Name     string // the block label, e.g. "object-server"
	Role     string // hosts with this role run it
	Template string // built-in template name or a template file path
	Path     string // absolute path of the rendered conf on the host
	Manager  string // ManagerSystemd, ManagerSwiftInit or ManagerDirect
	Unit     string // systemd unit or daemon name ("" = derived from Name)
	// Daemons are the background daemons of the service's role that setup
	// runs beside the server, from the same conf and with the same manager
	// ("replicator", "auditor", ...); the others are left as they are.
	Daemons  []string
	Restart  string   // override of the restart command ("" = from Manager)
	Health   string   // override of the health check URL or command
	Settings Settings // section -> key -> value
	// Unchecked are keys or sections of Settings (and of variants' set
	// blocks for this service) that the option catalog does not check: a
	// patched Swift's option, a third-party middleware.
	Unchecked []string
	// Packages, when PackagesSet, are the packages the service needs on its
	// hosts, instead of the default for its name on the host's distribution.
	Packages    []string
	PackagesSet bool
	DefRange    hcl.Range
}

// Settings is an INI-shaped overlay: section -> key -> value. Section and key
// order is not kept by HCL objects; templates decide the order.
type Settings map[string]map[string]Setting

// Setting is one value with where it was written.
type Setting struct {
	Value     string    // rendered as the INI file will hold it
	Sensitive bool      // derived from a sensitive variable: mask in output
	Range     hcl.Range // the attribute or object item that set it
	// SectionRange is where its section was named (the section's key in
	// the settings object, or the set block's attribute).
	SectionRange hcl.Range
}

// Variant is one configuration to measure: overrides applied on top of the
// services' settings.
type Variant struct {
	Name        string                 // expanded name, e.g. "servers_per_port=2"
	Block       string                 // the variant block's label
	Description string                 // free text, e.g. the seed's table row "normal; 29 workers"
	Set         map[string]Settings    // service name -> overrides
	RingPort    map[string]bool        // ring name -> port_per_disk
	Runs        map[string]*GenericRun // generic service name -> its flags and after_start in this variant
	// Before are commands run before each of the variant's measured runs
	// (after any warm-up, before a command workload's own), on the
	// BeforeOn hosts (default: the workload's clients) one host after
	// another: drop the page cache for a cold run, read a file for a warm one.
	Before   []string
	BeforeOn []string
	// Faults are applied during each measured run of the variant, at
	// their times, and undone (fault blocks; plan/fault.go).
	Faults []*Fault
	// Unchecked are keys or sections of the variant's set blocks that the
	// option catalog does not check (as Service.Unchecked).
	Unchecked []string
	DefRange  hcl.Range
}

// PortPerDisk reports whether the variant gives ring r one port per disk.
func (v *Variant) PortPerDisk(r string) bool { return v.RingPort[r] }

// Workload is one load to run in every variant. A workload block with
// for_each gives one Workload per element (an axis point), in order.
type Workload struct {
	Name            string
	Block           string            // the workload block's label
	Axis            *AxisPoint        // the for_each element, nil without for_each
	ScenarioSet     map[string]string // scenario_set: scenario field -> its JSON value, nil when absent
	ScenarioFile    string            // path relative to the testbed file's directory, "" when inline
	ScenarioJSON    []byte            // the scenario as ssbench JSON (read from the file or built from attributes)
	Users           int               // concurrent users (0 = the scenario's user_count)
	Duration        time.Duration     // 0 = the scenario's run_seconds
	OperationCount  int               // 0 = by duration
	Rate            float64           // requests/s for open loop, 0 = closed loop
	Clients         []string          // host names that run the agents
	AgentsPerClient int               // default 1
	Auth            *Auth             // nil when StorageURL/Token are given
	API             string            // "swift" (the default) or "s3": the API its agents speak (Auth.Kind "s3")
	StorageURL      string
	Token           string
	MaxErrorRate    *float64 // the workload's error-rate gate; nil = the sweep's
	// Policy is the storage policy its containers are created in: the
	// workload's policy attribute (written into the scenario's policy
	// field) or the scenario's own; "" = the cluster's default.
	Policy      string
	PolicyRange hcl.Range // where Policy was given (the attribute, or the workload block)
	// Verify checks every GET's body against what was written (verify;
	// default: on when the workload's policy is erasure-coded), VerifyWhy
	// says why (VerifyGivenOn, VerifyGivenOff, VerifyEC; "" = off by
	// default). A cell's verify is VerifyIn's: fault cells default to on.
	Verify    bool
	VerifyWhy string
	// Endpoints are several proxies' URLs that the workload's agents
	// spread over (auth URLs with an auth block, storage URLs with a
	// token), nil for the one of Auth or StorageURL (EndpointURLs).
	Endpoints []string
	// MaxFaultErrorRate limits the errors while a fault is applied (the
	// "during" phase); nil = no limit: they are data, shown with causes.
	MaxFaultErrorRate *float64
	Fill              *Fill // a fill experiment (its fill block), nil for other workloads
	// Search is a capacity search (its search block), nil for a run at
	// one load.
	Search *Search
	// AutoDuration is duration = "auto", Warmup the workload's own
	// warmup (a duration or "auto"; nil: the sweep's), AutoRepeat
	// repeat = "auto"; nil when not given (decode_auto.go).
	AutoDuration *AutoDuration
	Warmup       *Warmup
	AutoRepeat   *AutoRepeat
	// Thresholds are its threshold blocks: regression gates of compare.
	Thresholds []Threshold
	// Command, when set, makes this a command workload (a tool's output
	// parsed into figures) instead of a Swift scenario run by the agents.
	Command *CommandLoad
	// Variants are the names of the variants it runs on (its variants
	// attribute, a block label expanded to the block's variants), in the
	// variants' declaration order; nil: every variant (RunsOn). Decoding
	// sets them with SetVariants.
	Variants      []string
	VariantsRange hcl.Range       // the variants attribute, when given
	variantSet    map[string]bool // Variants indexed by SetVariants
	DefRange      hcl.Range
}

// ErrorGate returns the error-rate gate of w's cells: its own, else the
// sweep's.
func (tb *Testbed) ErrorGate(w *Workload) float64 {
	if w != nil && w.MaxErrorRate != nil {
		return *w.MaxErrorRate
	}
	return tb.Sweep.MaxErrorRate
}

// AxisPoint is the element of a workload's for_each that one Workload is.
type AxisPoint struct {
	Index int    `json:"index"` // 0-based position in the for_each
	Key   string `json:"key"`   // each.key as text (a list's index, a map's key)
	Value string `json:"value"` // each.value as text (JSON when not a string, number or bool)
}

// Params describes the workload's axis point for results: the block label
// mapped to each.value, and every scenario field scenario_set overrides
// mapped to its value (JSON, a string unquoted). It is nil for a workload with neither.
func (w *Workload) Params() map[string]string {
	if w.Axis == nil && len(w.ScenarioSet) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range w.ScenarioSet {
		var str string
		if json.Unmarshal([]byte(v), &str) == nil {
			v = str // a JSON string as its text
		}
		out[k] = v
	}
	if w.Axis != nil {
		out[w.Block] = w.Axis.Value
	}
	return out
}

// Auth is how a workload authenticates. With kind "s3" (a workload's
// api = "s3") URL is the S3 endpoint, User the access key and Key the
// secret key of SigV4 signatures (tempauth's account:user and its key).
type Auth struct {
	Kind        string // "v1" (tempauth, swauth), "v3" (Keystone) or "s3"
	URL         string
	User        string
	Key         string     // sensitive
	Project     string     // v3
	Domain      string     // v3
	Region      string     // s3: the region signed for ("" = us-east-1, s3api's default location)
	PathStyle   bool       // s3: buckets as /bucket/key, else as virtual hosts
	SignPayload bool       // s3: payload = "hashed" (each body's SHA-256), else UNSIGNED-PAYLOAD
	S3Attr      *hcl.Range // s3: the first of region, path_style, payload given (for errors)
	DefRange    hcl.Range
}

// Prefill describes the objects created before the sweep.
type Prefill struct {
	Workloads       []string // workloads whose initial files are created ("" = all)
	Verify          string   // "listing" (default) or "head"
	Clients         []string // default: the workloads' clients
	AgentsPerClient int
	Concurrency     int // PUTs in flight per agent
	DefRange        hcl.Range
}

// Sweep holds how the matrix is run.
type Sweep struct {
	Repeat int // default 1
	// Interleave runs the first repeat of every cell, then the second, and
	// so on, so that the lab's drift during the sweep falls on every
	// variant alike (default false: a variant's repeats back to back).
	Interleave bool
	Warmup     time.Duration // before every measured run
	OnFailure  string        // "continue" (default) or "stop"
	Restore    bool          // default true
	RunsDir    string        // default "runs"
	// MaxErrorRate is the error-rate gate: a cell whose failed operations
	// are a larger share of all than this fails (default 1 %).
	MaxErrorRate float64
	DefRange     hcl.Range
}

// Cell is one measured run of the matrix: a variant, a workload, a repeat.
type Cell struct {
	ID       string // stable: "<index>-<variant>-<workload>-r<repeat>", sanitised
	Index    int    // 1-based, in expansion order
	Variant  *Variant
	Workload *Workload
	Repeat   int // 1-based
}
