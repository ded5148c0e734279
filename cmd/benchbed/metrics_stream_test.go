package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/plan"
	"benchbed/results/metrics"
)

func TestMetricsListenServesOpenMetrics(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	patientStream(t)
	lm, err := startMetrics(context.Background(), metricsFlags{listen: addr}, loadState("s"))
	if err != nil {
		t.Fatal(err)
	}
	lm.phase(load.Config{Rate: 25}, metrics.PhaseRun, "http://user:pw@p1/auth/v1.0")
	var page string
	// The page fills once the sender took the batch; the minute bounds a hang.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/metrics", nil)
		req.Header.Set("Accept", "application/openmetrics-text;version=1.0.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if page = string(b); strings.Contains(page, "benchbed_offered_rate") {
			break
		}
	}
	if !strings.Contains(page, `phase="run"`) || !strings.Contains(page, "benchbed_offered_rate{") || !strings.HasSuffix(page, "# EOF\n") {
		t.Fatalf("page:\n%s", page)
	}
	var errb strings.Builder
	lm.close(&errb)
	if !strings.Contains(errb.String(), "metrics endpoint "+addr+": 2 batches sent, 0 dropped") {
		t.Errorf("closing line %q", errb.String())
	}
	if _, err := http.Get("http://" + addr + "/metrics"); err == nil {
		t.Error("the page is still served after close")
	}
}

func TestMetricsFlagsAddToTheTestbedsBlock(t *testing.T) {
	m := metricsFlags{remoteWrite: []string{"http://b/api/v1/write"}, queue: metrics.DefaultQueue}
	got := m.withTestbed(plan.Metrics{RemoteWrite: []string{"http://a/api/v1/write"}, Listen: "127.0.0.1:9469", Queue: 7})
	if len(got.remoteWrite) != 2 || got.remoteWrite[0] != "http://a/api/v1/write" || got.listen != "127.0.0.1:9469" || got.queue != 7 {
		t.Errorf("merged %+v", got)
	}
}
