package telemetry

import "time"

// Phases a sample can carry: the orchestrator switches them as the cell
// goes from warm-up to the measured run and back to idle.
const (
	PhaseIdle   = "idle"
	PhaseWarmup = "warmup"
	PhaseRun    = "run"
)

// Sample is one interval of one host: a JSON line of the agent and of
// cells/<cell>/telemetry/<host>.jsonl.
type Sample struct {
	T     time.Time          `json:"t"`
	Phase string             `json:"phase"`
	Host  string             `json:"host,omitempty"`
	CPU   CPU                `json:"cpu"`
	Load1 float64            `json:"load1"`
	Mem   Mem                `json:"mem"`
	Net   map[string]NetRate `json:"net,omitempty"`
	Disks map[string]Disk    `json:"disks,omitempty"`
	Procs map[string]Procs   `json:"procs,omitempty"`
	Self  Self               `json:"self"`
	// Statsd is the statsd timers received over the interval, per metric
	// (only from the agent that runs the receiver).
	Statsd map[string]Timer `json:"statsd,omitempty"`
	// Dropped counts the samples the agent dropped before this one
	// because its output was not read fast enough (bounded buffer).
	Dropped int `json:"dropped,omitempty"`
}

// CPU is the host's CPU time over the interval, in percent of all cores.
// Busy is everything but idle and iowait (steal included: time the host
// could not use).
type CPU struct {
	Busy   float64 `json:"busy_pct"`
	User   float64 `json:"user_pct"`
	System float64 `json:"system_pct"`
	IOWait float64 `json:"iowait_pct"`
	Steal  float64 `json:"steal_pct"`
}

// Mem is the host's memory at the sample's time, in MB. Used is total
// minus available; Cache is the page cache (Cached and Buffers).
type Mem struct {
	Total float64 `json:"total_mb"`
	Used  float64 `json:"used_mb"`
	Cache float64 `json:"cache_mb"`
}

// NetRate is one interface's traffic over the interval, in MB/s.
type NetRate struct {
	Rx float64 `json:"rx_mb_s"`
	Tx float64 `json:"tx_mb_s"`
}

// Disk is one testbed disk's block device over the interval: operations
// per second, MB/s, the mean time an operation took (await, ms) and the
// share of the interval the device was busy (util, percent).
type Disk struct {
	Dev     string  `json:"dev"`
	Reads   float64 `json:"reads_s"`
	Writes  float64 `json:"writes_s"`
	ReadMB  float64 `json:"read_mb_s"`
	WriteMB float64 `json:"write_mb_s"`
	Await   float64 `json:"await_ms"`
	Util    float64 `json:"util_pct"`
}

// Procs is one service's process group over the interval: CPU summed over
// its processes (percent of one core), resident memory summed (MB) and
// the number of processes.
type Procs struct {
	CPU float64 `json:"cpu_pct"`
	RSS float64 `json:"rss_mb"`
	N   int     `json:"n"`
}

// Self is the agent's own cost over the interval: CPU in percent of one
// core, resident memory in MB.
type Self struct {
	CPU float64 `json:"cpu_pct"`
	RSS float64 `json:"rss_mb"`
}
