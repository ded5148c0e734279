package main

import (
	"strings"
	"testing"
)

// TestTelemetryAgentCommand: a config and then the end of stdin give the
// ready line and a clean exit; a bad config, an error line and exit 1.
func TestTelemetryAgentCommand(t *testing.T) {
	out, _, err := runCmd(t, `{"host":"h","disks":[{"name":"d","path":"/"}]}`+"\n", "telemetry-agent")
	if err != nil || !strings.HasPrefix(out, `{"type":"ready","host":"h","disks":{"d":`) {
		t.Errorf("err %v, out %s", err, out)
	}
	out, _, err = runCmd(t, `{"disks":[{"name":"d"}]}`+"\n", "telemetry-agent")
	if err == nil || !strings.Contains(out, `"type":"error"`) || !strings.Contains(out, "needs a name and a path") {
		t.Errorf("err %v, out %s", err, out)
	}
}
