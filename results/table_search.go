package results

import (
	"fmt"
	"io"
	"strconv"
)

// SearchHeader is the capacity table's header: one row per search cell.
var SearchHeader = []string{"cell", "SLO", "capacity at SLO (req/s)", "achieved (req/s)", "outcome", "probes", "why"}

// ProbeHeader is a search's probe table's header.
var ProbeHeader = []string{"probe", "role", "offered (req/s)", "achieved (req/s)", "first-byte p50 (ms)", "p99 (ms)", "errors", "client CPU", "verdict"}

// SearchLegend follows the capacity table.
const SearchLegend = "capacity at SLO: the highest open-loop rate whose probe met the SLO, confirmed; " +
	"probes: the runs behind it (the cell's probe table, its agents' streams under probes/)"

// SearchCells are the cells holding a capacity search.
func SearchCells(cells []Cell) []Cell {
	var out []Cell
	for _, c := range cells {
		if c.Search != nil {
			out = append(out, c)
		}
	}
	return out
}

// SearchRows are the capacity table's rows, one per search cell.
func SearchRows(cells []Cell) [][]string {
	var rows [][]string
	for _, c := range SearchCells(cells) {
		s := c.Search
		capacity, achieved := "-", "-"
		if s.Capacity > 0 {
			capacity, achieved = strconv.FormatFloat(s.Capacity, 'g', 4, 64), strconv.FormatFloat(s.Achieved, 'g', 4, 64)
		}
		name := c.ID
		if name == "" {
			name = c.Variant + " " + c.Workload
		}
		rows = append(rows, []string{name, s.SLO, capacity, achieved, s.Outcome, strconv.Itoa(len(s.Probes)), s.Why})
	}
	return rows
}

// ProbeRows are a search's probes, in the order run.
func ProbeRows(s *SearchResult) [][]string {
	var rows [][]string
	for i, p := range s.Probes {
		cpu := "-"
		if p.ClientCPU != nil {
			cpu = Percent(*p.ClientCPU)
		}
		verdict := "pass"
		if !p.Pass {
			verdict = "fail: " + p.Why
		}
		rows = append(rows, []string{strconv.Itoa(i + 1), p.Role, strconv.FormatFloat(p.Offered, 'g', 4, 64),
			strconv.FormatFloat(p.Achieved, 'g', 4, 64), ms(p.FirstByte.P50, p.Count > 0), ms(p.FirstByte.P99, p.Count > 0),
			Percent(p.ErrorRate), cpu, verdict})
	}
	return rows
}

// WriteSearchTables writes the capacity table of the search cells, then
// each one's probes; nothing when no cell searched.
func WriteSearchTables(w io.Writer, cells []Cell) error {
	sc := SearchCells(cells)
	if len(sc) == 0 {
		return nil
	}
	if _, err := fmt.Fprint(w, "\nCapacity at SLO\n\n"); err != nil {
		return err
	}
	if err := writeMarkdown(w, SearchHeader, SearchRows(sc), SearchLegend); err != nil {
		return err
	}
	for _, c := range sc {
		if _, err := fmt.Fprintf(w, "\nProbes of %s\n\n", c.ID); err != nil {
			return err
		}
		if err := writeMarkdown(w, ProbeHeader, ProbeRows(c.Search), "verdict: the SLO's metrics and the limit missed, or the rate not achieved"); err != nil {
			return err
		}
	}
	return nil
}
