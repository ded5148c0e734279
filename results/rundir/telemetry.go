package rundir

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"benchbed/results"
	"benchbed/results/telemetry"
)

// ReadTelemetry reads cell c's telemetry samples
// (cells/<id>/telemetry/<host>.jsonl), samples in file order, hosts in
// the order of the cell's telemetry summary (the testbed's), else by
// name. A cell without them has none and no error; a line that is not a
// sample is an error naming its file and sample.
func (r *RunResults) ReadTelemetry(c *results.Cell) ([]telemetry.HostSamples, error) {
	dir := r.CellDir(c)
	if dir == "" {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, TelemetryDir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []telemetry.HostSamples
	for _, p := range files {
		samples, err := telemetry.ReadSamples(p)
		if err != nil {
			return nil, err
		}
		out = append(out, telemetry.HostSamples{Host: strings.TrimSuffix(filepath.Base(p), ".jsonl"), Samples: samples})
	}
	if c.Telemetry != nil {
		order := func(h string) int {
			return slices.IndexFunc(c.Telemetry.Hosts, func(s telemetry.HostSummary) bool { return s.Host == h })
		}
		slices.SortStableFunc(out, func(a, b telemetry.HostSamples) int { return order(a.Host) - order(b.Host) })
	}
	return out, nil
}
