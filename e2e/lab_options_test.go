package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchbed/e2e/labkit"
)

// newerOption is a variant of lab.hcl's that sets an option Swift 2.33
// added: validate knows it (any Swift benchbed carries a catalog of), and
// the lab's hosts, which run this machine's Swift 2.30.1, do not.
const newerOption = `
variant "newer" {
  set "object-server" {
    settings = { "app:object-server" = { keep_cache_slo_manifest = true } }
  }
}
`

// testPreflightChecksEachHostsSwift: preflight reads the hosts' own Swift
// (version and sample confs) and refuses an option it lacks, naming the
// storage hosts, the file and line; lab.hcl itself passes, the catalog
// named.
func testPreflightChecksEachHostsSwift(t *testing.T, lab *Env) {
	out, errOut, err := lab.Benchbed(t, "preflight", lab.Testbed)
	if err != nil || !strings.Contains(out, "stor1, stor2: Swift 2.30.1, checked against the hosts' own sample confs") {
		t.Fatalf("preflight of lab.hcl: %v\n%s\n%s", err, out, errOut)
	}
	dir := t.TempDir()
	text, err := labkit.Inlined(lab.Testbed)
	must(t, err)
	scen, err := os.ReadFile(filepath.Join(filepath.Dir(lab.Testbed), "64K_get_lab.scenario"))
	must(t, err)
	tb := filepath.Join(dir, "newer.hcl")
	must(t, os.WriteFile(tb, append([]byte(text), newerOption...), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "64K_get_lab.scenario"), scen, 0o644))
	if out, errOut, err := lab.Benchbed(t, "validate", tb); err != nil {
		t.Fatalf("validate (any carried Swift knows the option): %v\n%s\n%s", err, out, errOut)
	}
	line := strings.Count(string(text), "\n") + strings.Count(newerOption[:strings.Index(newerOption, "keep_cache")], "\n") + 1
	_, errOut, err = lab.Benchbed(t, "preflight", tb)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(errOut, "stor1, stor2 (Swift 2.30.1") ||
		!strings.Contains(errOut, `reads no "keep_cache_slo_manifest"`) || !strings.Contains(errOut, "newer.hcl:"+strconv.Itoa(line)) {
		t.Fatalf("preflight of an option the hosts' Swift lacks: %v, want exit 1 naming stor1, stor2 and newer.hcl:%d\n%s", err, line, errOut)
	}
}
