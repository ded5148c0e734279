package summary

import (
	"bytes"

	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/rundir"
)

// Save writes the run's summary.json and table.md from its cells, in the
// order given, and returns the summary.
func Save(run *rundir.Run, tb *plan.Testbed, cells []Cell) (*results.Summary, error) {
	sum := &results.Summary{Run: run.ID, Testbed: tb.Name, Cells: []results.Cell{}}
	for _, c := range cells {
		res := c.Res
		if res.Params == nil {
			res.Params = c.Cell.Workload.Params()
		}
		sum.Cells = append(sum.Cells, res)
	}
	if err := run.WriteSummary(sum); err != nil {
		return sum, err
	}
	var t bytes.Buffer
	if err := Write(&t, tb, cells); err != nil {
		return sum, err
	}
	return sum, run.WriteFile(rundir.TableFile, t.Bytes())
}
