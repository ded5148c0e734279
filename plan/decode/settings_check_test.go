package decode

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// settingsTestbed is the minimal testbed with an object server whose
// settings, unchecked list and variants the tests fill in (%[1]s: the
// testbed block's body, %[2]s the service's, %[3]s more blocks).
const settingsTestbed = `
testbed "t" {
  %[1]s
}
host "h1" {
  address = "127.0.0.1"
  roles   = ["object"]
  disks "d" { names = ["d1", "d2"] }
}
ring "object" {
  part_power = 8
  disks      = "d"
}
service "object-server" {
  role = "object"
  %[2]s
}
%[3]s
`

// settingsDiags loads the settings testbed and returns its diagnostics.
func settingsDiags(t *testing.T, tbBody, service, more string) hcl.Diagnostics {
	t.Helper()
	text := fmt.Sprintf(settingsTestbed, tbBody, service, more) + minimalWorkload
	dir := write(t, map[string]string{"tb.hcl": text})
	_, diags := Load(filepath.Join(dir, "tb.hcl"), LoadOptions{})
	return diags
}

// lineOf is the 1-based line of the first line of the settings testbed
// (with tbBody and service as given) that contains s.
func lineOf(t *testing.T, tbBody, service, more, s string) int {
	t.Helper()
	for i, l := range strings.Split(fmt.Sprintf(settingsTestbed, tbBody, service, more), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line holds %q", s)
	return 0
}

// TestSettingsMistakesRefusedAtTheirLine writes each mistake a newcomer
// makes and checks the error, its line and its suggestion.
func TestSettingsMistakesRefusedAtTheirLine(t *testing.T) {
	for _, tc := range []struct {
		service, at, summary, says string
	}{
		{`settings = { DEFAULT = { wokers = 4 } }`, "wokers", "Unknown Swift option", "Did you mean workers?"},
		{`settings = { DEFALUT = { workers = 4 } }`, "DEFALUT", "Unknown settings section", "Did you mean DEFAULT?"},
		{`settings = { "app:object-srever" = { mb_per_sync = 4 } }`, "srever", "Unknown settings section", "Did you mean app:object-server?"},
		{`settings = { DEFAULT = { workers = "four" } }`, "four", "Invalid value for a Swift option", "an integer or auto"},
		{`settings = { DEFAULT = { mount_check = "maybe" } }`, "maybe", "Invalid value for a Swift option", "a boolean"},
		{`settings = { "app:object-server" = { object_chunk_size = 65536 } }`, "object_chunk_size", "Unknown Swift option", "proxy-server.conf's [app:proxy-server] reads it"},
		{`settings = { "filter:recon" = { recon_cache_pth = "/x" } }`, "recon_cache_pth", "Unknown Swift option", "Did you mean recon_cache_path"},
	} {
		diags := settingsDiags(t, "", tc.service, `variant "v" {}`)
		if len(diags) != 1 {
			t.Errorf("%s: %d diagnostics, want 1: %s", tc.service, len(diags), diags.Error())
			continue
		}
		d, want := diags[0], lineOf(t, "", tc.service, "", tc.at)
		if d.Severity != hcl.DiagError || d.Summary != tc.summary || d.Subject.Start.Line != want || !strings.Contains(d.Detail, tc.says) {
			t.Errorf("%s: got %s at line %d: %s; want %q at line %d saying %q", tc.service, d.Summary, d.Subject.Start.Line, d.Detail, tc.summary, want, tc.says)
		}
	}
}

// TestVariantSetsChecked checks a variant's set blocks, and says a
// for_each's repeated mistake once with its instances named.
func TestVariantSetsChecked(t *testing.T) {
	more := `variant "v" {
  for_each = [1, 2]
  name     = "spp=${each.value}"
  set "object-server" {
    DEFAULT = { servers_per_prot = each.value }
  }
}`
	diags := settingsDiags(t, "", "", more)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "Did you mean servers_per_port?") ||
		!strings.Contains(diags[0].Detail, "in 2 instances: variant spp=1, variant spp=2") {
		t.Fatalf("diagnostics: %s", diags.Error())
	}
}

// TestRetiredOptionWarns keeps a retired option a warning, not an error.
func TestRetiredOptionWarns(t *testing.T) {
	diags := settingsDiags(t, "", `settings = { DEFAULT = { threads_per_disk = 1 } }`, `variant "v" {}`)
	if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, "removed in Swift 2.8.0") {
		t.Fatalf("diagnostics: %s", diags.Error())
	}
}

// TestUncheckedAllowsAPatchedSwiftsOption lets a service's and a variant's
// unchecked list through, lists them for plan, and warns about a name that
// no setting uses.
func TestUncheckedAllowsAPatchedSwiftsOption(t *testing.T) {
	service := `settings = { DEFAULT = { spp_patch = 1 }, "filter:mine" = { x = 1 } }
  unchecked = ["spp_patch", "filter:mine"]`
	more := `variant "v" {
  unchecked = ["other_patch", "never_used"]
  set "object-server" {
    DEFAULT = { other_patch = 2 }
  }
}`
	text := fmt.Sprintf(settingsTestbed, "", service, more) + minimalWorkload
	tb, diags := Load(filepath.Join(write(t, map[string]string{"tb.hcl": text}), "tb.hcl"), LoadOptions{})
	if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, `"never_used"`) {
		t.Fatalf("diagnostics: %s", diags.Error())
	}
	got := strings.Join(tb.SettingsCheck.Unchecked, "\n")
	for _, want := range []string{"[DEFAULT] spp_patch: unchecked", "[filter:mine]: unchecked", "variant v, service object-server [DEFAULT] other_patch: unchecked"} {
		if !strings.Contains(got, want) {
			t.Errorf("plan's unchecked list lacks %q:\n%s", want, got)
		}
	}
}

// TestSwiftVersionPicksTheCatalog checks an option against the named
// release: known to 2.36.0, unknown to 2.29.2; an uncarried version is an
// error at the attribute.
func TestSwiftVersionPicksTheCatalog(t *testing.T) {
	const newer = `settings = { "app:object-server" = { keep_cache_slo_manifest = true } }`
	if d := settingsDiags(t, `swift_version = "2.36.0"`, newer, `variant "v" {}`); d.HasErrors() {
		t.Errorf("2.36.0: %s", d.Error())
	}
	if d := settingsDiags(t, `swift_version = "2.29.2"`, newer, `variant "v" {}`); len(d) != 1 || !strings.Contains(d[0].Detail, "Swift 2.29.2) reads no \"keep_cache_slo_manifest\"") {
		t.Errorf("2.29.2: %s", d.Error())
	}
	d := settingsDiags(t, `swift_version = "1.8.0"`, "", `variant "v" {}`)
	if len(d) != 1 || d[0].Summary != "Unknown Swift version" || !strings.Contains(d[0].Detail, "2.30.1") || d[0].Subject.Start.Line != 3 {
		t.Errorf("1.8.0: %s", d.Error())
	}
}

// TestDefaultValueNoted lists a setting equal to Swift's default for plan.
func TestDefaultValueNoted(t *testing.T) {
	text := fmt.Sprintf(settingsTestbed, `swift_version = "2.30.1"`, `settings = { DEFAULT = { workers = "auto", max_clients = 1024 } }`, `variant "v" {}`) + minimalWorkload
	tb, diags := Load(filepath.Join(write(t, map[string]string{"tb.hcl": text}), "tb.hcl"), LoadOptions{})
	if len(diags) != 0 {
		t.Fatal(diags.Error())
	}
	got := strings.Join(tb.SettingsCheck.AtDefault, "\n")
	if !strings.Contains(got, "workers = auto") || !strings.Contains(got, "max_clients = 1024") || tb.SettingsCheck.Catalog != "Swift 2.30.1" {
		t.Errorf("at default: %q, catalog %q", got, tb.SettingsCheck.Catalog)
	}
}
