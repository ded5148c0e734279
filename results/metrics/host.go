package metrics

import (
	"maps"
	"slices"

	"benchbed/results/telemetry"
)

// The hosts' telemetry series (one point each a sample).
const (
	SeriesHostCPUBusy    = "benchbed_host_cpu_busy_percent"
	SeriesHostCPUIOWait  = "benchbed_host_cpu_iowait_percent"
	SeriesHostLoad1      = "benchbed_host_load1"
	SeriesHostMemUsed    = "benchbed_host_memory_used_megabytes"
	SeriesHostNetRx      = "benchbed_host_net_rx_megabytes_per_second"     // by device
	SeriesHostNetTx      = "benchbed_host_net_tx_megabytes_per_second"     // by device
	SeriesHostDiskUtil   = "benchbed_host_disk_util_percent"               // by device
	SeriesHostDiskAwait  = "benchbed_host_disk_await_milliseconds"         // by device
	SeriesHostDiskReadMB = "benchbed_host_disk_read_megabytes_per_second"  // by device
	SeriesHostDiskWrite  = "benchbed_host_disk_write_megabytes_per_second" // by device
	SeriesHostProcCPU    = "benchbed_host_service_cpu_percent"             // by service
)

// Telemetry sends one host's telemetry sample, labelled with the current
// state and the host.
func (a *Aggregator) Telemetry(s telemetry.Sample) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.send(hostPoints(a.base, s))
}

// hostPoints are a sample's points.
func hostPoints(base []Label, s telemetry.Sample) []Point {
	ls := labelSet(base, LabelHost, s.Host)
	pts := []Point{
		{Name: SeriesHostCPUBusy, Labels: ls, Value: s.CPU.Busy, Time: s.T},
		{Name: SeriesHostCPUIOWait, Labels: ls, Value: s.CPU.IOWait, Time: s.T},
		{Name: SeriesHostLoad1, Labels: ls, Value: s.Load1, Time: s.T},
		{Name: SeriesHostMemUsed, Labels: ls, Value: s.Mem.Used, Time: s.T},
	}
	for _, dev := range slices.Sorted(maps.Keys(s.Net)) {
		dl := labelSet(ls, LabelDevice, dev)
		pts = append(pts, Point{Name: SeriesHostNetRx, Labels: dl, Value: s.Net[dev].Rx, Time: s.T},
			Point{Name: SeriesHostNetTx, Labels: dl, Value: s.Net[dev].Tx, Time: s.T})
	}
	for _, name := range slices.Sorted(maps.Keys(s.Disks)) {
		d := s.Disks[name]
		dl := labelSet(ls, LabelDevice, name)
		pts = append(pts, Point{Name: SeriesHostDiskUtil, Labels: dl, Value: d.Util, Time: s.T},
			Point{Name: SeriesHostDiskAwait, Labels: dl, Value: d.Await, Time: s.T},
			Point{Name: SeriesHostDiskReadMB, Labels: dl, Value: d.ReadMB, Time: s.T},
			Point{Name: SeriesHostDiskWrite, Labels: dl, Value: d.WriteMB, Time: s.T})
	}
	for _, svc := range slices.Sorted(maps.Keys(s.Procs)) {
		pts = append(pts, Point{Name: SeriesHostProcCPU, Labels: labelSet(ls, LabelService, svc), Value: s.Procs[svc].CPU, Time: s.T})
	}
	return pts
}
