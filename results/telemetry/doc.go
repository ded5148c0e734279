// Package telemetry samples a host while a benchmark runs: CPU busy,
// iowait and steal, load, memory and page cache, network bytes per
// interface, per disk of the testbed (resolved to its block device)
// operations, bytes, await and utilisation, and per service (every
// process of its process group) CPU and RSS. It reads /proc and /sys only
// and imports only the standard library: the same binary runs it on every
// host as `benchbed telemetry-agent`.
//
// The data contract (sample lines, the per-cell summary) is
// TELEMETRY-SCHEMA: a Sample per interval, tagged with its phase (warmup,
// run, idle), and a CellSummary computed once per cell from the run
// phase's samples.
//
// Units: percentages of CPU for a host are of all its cores (0 to 100);
// for a process or the agent itself, of one core (top's convention, may
// exceed 100). MB means MiB (2^20 bytes), for memory and rates alike.
package telemetry
