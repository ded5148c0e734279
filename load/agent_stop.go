package load

import (
	"bufio"
	"encoding/json"
	"sync"
)

// StopLine is the control line the orchestrator writes on an agent's
// stdin, after its job, to end the run gracefully before its duration:
// the agent starts no new operation, lets those in flight finish (they
// count), and reports done as usual. Closing stdin instead cancels the
// run at once.
const StopLine = `{"type":"stop"}` + "\n"

// control is a line the orchestrator sends after the job.
type control struct {
	Type string `json:"type"`
}

// readControl reads control lines from br until its end, closing stop
// (once) at the first "stop"; other lines are ignored.
func readControl(br *bufio.Reader, stop chan struct{}) {
	var once sync.Once
	for {
		line, err := br.ReadBytes('\n')
		var c control
		if len(line) > 0 && json.Unmarshal(line, &c) == nil && c.Type == "stop" {
			once.Do(func() { close(stop) })
		}
		if err != nil {
			return
		}
	}
}
