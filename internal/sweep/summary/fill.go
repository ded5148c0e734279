package summary

import (
	"fmt"
	"io"

	"benchbed/results"
)

// writeFillTables writes, for each (variant, workload) of a fill workload,
// its PUT latency by container fill over the repeats that finished
// (results.AverageFill, results.WriteFillTable).
func (s *table) writeFillTables(w io.Writer) error {
	cells := s.namedCells()
	for _, idx := range results.Groups(cells) {
		if s.cells[idx[0]].Cell.Workload.Fill == nil {
			continue
		}
		group := make([]results.Cell, 0, len(idx))
		for _, i := range idx {
			group = append(group, cells[i])
		}
		buckets, n, err := results.AverageFill(group)
		if err != nil || n == 0 {
			continue // no finished repeat, or none to average: the cells say why
		}
		if _, err := fmt.Fprintf(w, "\nPUT latency by container fill: %s (%d of %d repeats)\n\n",
			pairLabel(s.tb, s.cells[idx[0]].Cell), n, len(idx)); err != nil {
			return err
		}
		if err := results.WriteFillTable(w, buckets); err != nil {
			return err
		}
	}
	return nil
}
