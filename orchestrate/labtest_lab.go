package orchestrate

import (
	"benchbed/plan"
	"benchbed/render"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// labTestbed loads testbeds/lab/lab.hcl from this tree.
func labTestbed(t *testing.T) *plan.Testbed {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "testbeds", "lab", "lab.hcl")
	tb, diags := plan.Load(path, plan.LoadOptions{})
	if diags.HasErrors() {
		t.Fatalf("%s: %v", path, diags)
	}
	return tb
}

func renderVariant(t *testing.T, tb *plan.Testbed, variant string) *render.Rendering {
	t.Helper()
	r, err := render.Render(tb, tb.Variant(variant), render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIP: %s is not installed; the direct manager's scripts need it", tool)
		}
	}
}

func objectServer(t *testing.T) *httptest.Server {
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
