package rundir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"benchbed/results"
)

// WriteSummary writes the run's summary.json.
func (r *Run) WriteSummary(s *results.Summary) error { return r.WriteJSON(SummaryFile, s) }

// WriteCell writes c as the cell.json of cell id.
func (r *Run) WriteCell(id string, c *results.Cell) error {
	dir, err := r.CellDir(id)
	if err != nil {
		return err
	}
	return WriteJSONFile(filepath.Join(dir, CellFile), c)
}

// TelemetryFile is the path of host's telemetry samples in cell id's
// directory (which it creates): cells/<id>/telemetry/<host>.jsonl.
func (r *Run) TelemetryFile(id, host string) (string, error) {
	dir, err := r.CellDir(id)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, TelemetryDir, SafeName(host)+".jsonl"), nil
}

// ReadCell reads the cell.json of cell id: a cell that finished.
func (r *Run) ReadCell(id string) (results.Cell, error) {
	p, err := r.Path(CellsDir, SafeName(id), CellFile)
	if err != nil {
		return results.Cell{}, err
	}
	return readCellFile(p)
}

// readCellFile reads one cell.json.
func readCellFile(p string) (results.Cell, error) {
	var c results.Cell
	b, err := os.ReadFile(p)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", p, err)
	}
	return c, nil
}

// WriteCellError writes why cell id failed, error.txt.
func (r *Run) WriteCellError(id, msg string) error {
	dir, err := r.CellDir(id)
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, ErrorFile), []byte(msg+"\n"), 0o640)
}

// LogFile is the name, in a cell's logs/, of the end of service's log on
// host.
func LogFile(host, service string) string {
	return SafeName(host) + "-" + SafeName(service) + ".log"
}

// AgentFile is the name, in a cell's agents/, of agent n's stream on host.
func AgentFile(n int, host string) string {
	return fmt.Sprintf("agent-%d-%s.jsonl", n, SafeName(host))
}

// OutputFile is the name, in a cell's output/, of a command workload's
// copy's stdout (ext "out") or stderr (ext "err") on host.
func OutputFile(copy int, host, ext string) string {
	return fmt.Sprintf("%d-%s.%s", copy, SafeName(host), ext)
}
