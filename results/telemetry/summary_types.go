package telemetry

// CellSummary is summary.json's "telemetry" of one cell: the run phase's
// samples of every host, summarised once.
type CellSummary struct {
	IntervalS  float64          `json:"interval_s"`
	RunSeconds float64          `json:"run_seconds"`
	Hosts      []HostSummary    `json:"hosts"`
	Disks      []DiskSummary    `json:"disks,omitempty"`
	Busiest    string           `json:"busiest_disk,omitempty"` // "host:disk"
	Services   []ServiceSummary `json:"services,omitempty"`
	Bottleneck string           `json:"bottleneck,omitempty"`
	PageCache  *PageCache       `json:"page_cache,omitempty"`
	// Statsd is the services' own timings (statsd timers) over the run,
	// per host and metric, when telemetry { statsd = true }.
	Statsd []StatsdSummary `json:"statsd,omitempty"`
}

// StatsdSummary is one statsd timer over the run phase.
type StatsdSummary struct {
	Host   string `json:"host"`
	Metric string `json:"metric"`
	Timer
}

// Stat is a mean, 95th percentile and maximum over a phase's samples.
type Stat struct {
	Mean float64 `json:"mean"`
	P95  float64 `json:"p95"`
	Max  float64 `json:"max"`
}

// MeanMax is a mean and maximum over a phase's samples.
type MeanMax struct {
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
}

// Peak is a maximum over a phase's samples.
type Peak struct {
	Max float64 `json:"max"`
}

// HostSummary is one host over the run phase.
type HostSummary struct {
	Host     string  `json:"host"`
	Samples  int     `json:"samples"`
	CPUBusy  Stat    `json:"cpu_busy_pct"`
	IOWait   Stat    `json:"iowait_pct"`
	Steal    Stat    `json:"steal_pct"`
	Load1    Stat    `json:"load1"`
	Cache    MeanMax `json:"cache_mb"`
	NetRx    MeanMax `json:"net_rx_mb_s"`
	NetTx    MeanMax `json:"net_tx_mb_s"`
	AgentCPU float64 `json:"agent_cpu_pct"` // the agent's own mean CPU, percent of one core
}

// DiskSummary is one testbed disk of one host over the run phase.
type DiskSummary struct {
	Host    string  `json:"host"`
	Disk    string  `json:"disk"`
	Dev     string  `json:"dev"`
	Util    MeanMax `json:"util_pct"`
	Await   MeanMax `json:"await_ms"`
	ReadMB  MeanMax `json:"read_mb_s"`
	WriteMB MeanMax `json:"write_mb_s"`
	IOPS    MeanMax `json:"iops"`
}

// ServiceSummary is one service's process group on one host over the run
// phase: CPU summed over its processes (percent of one core).
type ServiceSummary struct {
	Host      string `json:"host"`
	Service   string `json:"service"`
	Processes int    `json:"processes"`
	CPU       Stat   `json:"cpu_pct"`
	RSS       Peak   `json:"rss_mb"`
}

// PageCache says whether the GETs' working set fits in the object hosts'
// page cache (then reads measure memory, not disks), and whether the
// caches were dropped before the cell.
type PageCache struct {
	WorkingSetMB float64 `json:"working_set_mb"`
	CacheMB      float64 `json:"object_hosts_cache_mb"`
	Fits         bool    `json:"fits"`
	Warning      string  `json:"warning,omitempty"`
	Dropped      bool    `json:"dropped"`
}
