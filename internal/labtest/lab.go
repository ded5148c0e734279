package labtest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/render"
)

// LabTestbed loads testbeds/lab/lab.hcl from this tree.
func LabTestbed(t *testing.T) *plan.Testbed {
	t.Helper()
	return labFile(t, "lab.hcl")
}

// labFile loads testbeds/lab/name from this tree, failing the test on an
// error.
func labFile(t *testing.T, name string) *plan.Testbed {
	t.Helper()
	return Testbed(t, filepath.Join("lab", name))
}

// Testbed loads testbeds/rel (e.g. "distro/distro.hcl") from this tree,
// failing the test on an error.
func Testbed(t *testing.T, rel string) *plan.Testbed {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "testbeds", rel)
	tb, diags := decode.Load(path, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatalf("%s: %v", path, diags)
	}
	return tb
}

// RenderVariant renders variant of tb, failing the test on an error.
func RenderVariant(t *testing.T, tb *plan.Testbed, variant string) *render.Rendering {
	t.Helper()
	r, err := render.Render(tb, tb.Variant(variant), render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// NeedTools skips the test unless every tool is on $PATH.
func NeedTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIP: %s is not installed; the direct manager's scripts need it", tool)
		}
	}
}

// ObjectServer answers every request with token "tok" with ten bytes, and
// 401 to any other; it closes with the test.
func ObjectServer(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Auth-Token") != "tok" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, "0123456789")
	}))
	t.Cleanup(s.Close)
	return s
}

// gateTestbed has no prefill block; its workload reads 300 initial files
// of 4 KiB over 3 containers. %s is the fake Swift's URL, %s the
// workload's extra attributes.
const gateTestbed = `
testbed "gate" {}
host "st" {
  address = "127.0.0.1"
  roles   = ["object", "client"]
  disks "d" { names = ["d1"] }
}
ring "object" {
  part_power = 4
  disks      = "d"
}
service "object-server" { role = "object" }
variant "normal" {}
workload "4K_get" {
  scenario = "get.scenario"
  users    = 4
  operation_count = 400
  clients  = ["st"]
  %s
  auth {
    url  = "%s/auth/v1.0"
    user = "t:t"
    key  = "k"
  }
}
`

// GateScenario is GateTestbed's scenario: 300 initial files of 4 KiB over
// 3 containers, read 400 times.
const GateScenario = `{"name": "4K_get", "sizes": [{"name": "4KiB", "size_min": 4096, "size_max": 4096}],
 "initial_files": {"4KiB": 300}, "operation_count": 400, "container_base": "gate", "container_count": 3,
 "crud_profile": [0, 1, 0, 0], "user_count": 4}`

// GateTestbed is a one-host testbed without a prefill block whose workload
// reads GateScenario's objects from the fake Swift at url, with extra
// attributes.
func GateTestbed(t *testing.T, url, extra string) *plan.Testbed {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "get.scenario"), []byte(GateScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.LoadSource(filepath.Join(dir, "gate.hcl"), []byte(fmt.Sprintf(gateTestbed, extra, url)), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tb
}
