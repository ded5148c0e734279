package decode

import (
	"slices"
	"strings"
	"testing"
)

func TestMetricsBlock(t *testing.T) {
	tb, diags := loadTB(t, served)
	if diags != "" || tb.Metrics.RemoteWrite != nil || tb.Metrics.Listen != "" {
		t.Errorf("without a block: %+v %s", tb.Metrics, diags)
	}
	tb, diags = loadTB(t, served+`metrics {
  remote_write = ["http://127.0.0.1:9090/api/v1/write", "http://127.0.0.1:8428/api/v1/write"]
  influx       = ["http://127.0.0.1:8086/write?db=benchbed"]
  listen       = "127.0.0.1:9469"
  queue        = 120
}
`)
	m := tb.Metrics
	if diags != "" || len(m.RemoteWrite) != 2 || !slices.Equal(m.Influx, []string{"http://127.0.0.1:8086/write?db=benchbed"}) ||
		m.Listen != "127.0.0.1:9469" || m.Queue != 120 {
		t.Errorf("block: %+v %s", m, diags)
	}
	for text, want := range map[string]string{
		`metrics { remote_write = ["ftp://x/y"] }`: `tb.hcl:22,26: Invalid value for remote_write`,
		`metrics { listen = "9469" }`:              `tb.hcl:22,20: Invalid value for listen`,
		`metrics { queue = 0 }`:                    `tb.hcl:22,19: Invalid value for queue`,
		`metrics { endpoint = "x" }`:               `tb.hcl:22,11: Unsupported argument`,
	} {
		_, diags := loadTB(t, served+text+"\n")
		if !strings.Contains(diags, want) {
			t.Errorf("%s: diagnostics %q, want %q", text, diags, want)
		}
	}
}
