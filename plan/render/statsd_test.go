package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/decode"
)

// TestStatsdRendered: telemetry { statsd = true } points every Swift
// server conf at the first client host, with the host's name as the
// metrics' prefix; swift.conf and a testbed without statsd get nothing.
func TestStatsdRendered(t *testing.T) {
	hcl := `
testbed "t" {}
host "s1" {
  address = "127.0.0.1"
  roles   = ["object"]
  disks "d" { names = ["d1"] }
}
host "c1" {
  address = "127.0.0.9"
  roles   = ["client"]
}
ring "object" {
  part_power = 4
  disks      = "d"
}
service "object-server" { role = "object" }
variant "v" {}
workload "w" {
  scenario    = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }
  storage_url = "http://127.0.0.1:8080/v1/AUTH_a"
  token       = "t"
}
`
	for _, statsd := range []bool{true, false} {
		text := hcl
		if statsd {
			text += "telemetry { statsd = true }\n"
		}
		path := filepath.Join(t.TempDir(), "t.hcl")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		tb, diags := decode.Load(path, decode.LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		r, err := Render(tb, tb.Variant("v"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := r.Conf("s1", "/etc/swift/object-server.conf")
		for k, want := range map[string]string{"log_statsd_host": "127.0.0.9", "log_statsd_port": "8125", "log_statsd_metric_prefix": "s1"} {
			if !statsd {
				want = ""
			}
			if v, _ := c.File.Value("DEFAULT", k); v != want {
				t.Errorf("statsd %v: %s = %q, want %q", statsd, k, v, want)
			}
		}
		if sw := r.Conf("s1", SwiftConfPath); strings.Contains(string(sw.File.Bytes()), "statsd") {
			t.Errorf("swift.conf got statsd settings")
		}
	}
}
