package telemetry

import (
	"fmt"
	"slices"
)

// ObjectHostsCacheMB is the memory the object hosts' page cache can grow
// to: the sum, over the object hosts, of the most memory available
// (total minus used: free and reclaimable cache) in any of their samples.
func ObjectHostsCacheMB(hosts []HostSamples, objectHosts []string) float64 {
	var sum float64
	for _, h := range hosts {
		if !slices.Contains(objectHosts, h.Host) {
			continue
		}
		var most float64
		for _, s := range h.Samples {
			most = max(most, s.Mem.Total-s.Mem.Used)
		}
		sum += most
	}
	return round(sum, 1)
}

// CheckPageCache compares the GETs' working set with the object hosts'
// page cache: when it fits, the reads measure memory, not disks.
func CheckPageCache(workingSetMB, cacheMB float64, dropped bool) *PageCache {
	pc := &PageCache{WorkingSetMB: round(workingSetMB, 1), CacheMB: cacheMB, Dropped: dropped,
		Fits: workingSetMB > 0 && workingSetMB <= cacheMB}
	if pc.Fits {
		pc.Warning = fmt.Sprintf("the GETs' working set (%.0f MB) fits in the object hosts' page cache (%.0f MB): "+
			"reads measure memory, not disks", workingSetMB, cacheMB)
		if dropped {
			pc.Warning += " once read (the caches were dropped before the cell, so its first reads came from the disks)"
		} else {
			pc.Warning += "; set telemetry { drop_caches = true } to drop caches before each cell"
		}
	}
	return pc
}
