package decode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan/lang"
)

// brokenCases pins every testbed under testdata/broken to the diagnostic it
// must produce: its summary and the line it points at. Each file is a valid
// testbed with one defect.
var brokenCases = []struct {
	file    string
	line    int
	summary string
	warning bool // a warning: the file is still valid
}{
	{"client_lacks_role", 29, "Client host lacks the client role", false},
	{"client_not_a_host", 18, "Unknown client host", false},
	{"daemon_unknown", 16, "Unknown daemon", false},
	{"devices_mismatch", 7, "Disk devices do not match names", false},
	{"duplicate_host", 24, "Duplicate host", false},
	{"duplicate_variant_name", 16, "Duplicate variant", false},
	{"file_missing", 13, "Error in function call", false},
	{"fill_buckets_range", 20, "Invalid value for buckets", false},
	{"fill_duplicate", 21, "Duplicate fill block", false},
	{"fill_more_buckets_than_objects", 20, "Invalid value for buckets", false},
	{"fill_no_objects", 18, "Missing required argument", false},
	{"fill_not_create_only", 18, "Invalid fill workload", false},
	{"fill_operation_count", 18, "Conflicting run bounds", false},
	{"for_each_not_collection", 16, "Invalid for_each", false},
	{"format_invalid", 8, "Invalid value for format", false},
	{"format_no_devices", 7, "Nothing to format", false},
	{"host_each_outside_for_each", 25, "each outside for_each", false},
	{"host_for_each_bad_key", 25, "Invalid host name", false},
	{"host_for_each_duplicate", 25, "Duplicate host", false},
	{"host_for_each_empty", 25, "Empty for_each", false},
	{"host_for_each_list_no_name", 25, "Missing host name", false},
	{"host_for_each_name_duplicate", 26, "Duplicate host", false},
	{"host_for_each_not_collection", 25, "Invalid for_each", false},
	{"invalid_duration", 18, "Invalid value for duration", false},
	{"invalid_manager", 13, "Invalid value for manager", false},
	{"invalid_on_failure", 25, "Invalid value for on_failure", false},
	{"invalid_ring_name", 7, "Invalid ring name", false},
	{"local_cycle", 2, "Local value cycle", false},
	{"missing_address", 2, "Missing required argument", false},
	{"no_testbed", 1, "Missing testbed block", false},
	{"package_name_invalid", 5, "Invalid package name", false},
	{"part_power_fraction", 8, "Invalid value for part_power", false},
	{"prefill_unknown_workload", 25, "Unknown workload", false},
	{"relative_service_path", 13, "Invalid path", false},
	{"repeat_zero", 25, "Invalid value for repeat", false},
	{"required_no_value", 1, "No value for required variable", false},
	{"ring_disk_group_missing", 7, "Ring disk group on no host", false},
	{"ring_ports_collide", 42, "Ring ports collide", false},
	{"run_bounds_conflict", 19, "Conflicting run bounds", false},
	{"role_no_service", 2, "Role served by no service", false},
	{"scenario_inline_invalid", 17, "Invalid scenario", false},
	{"scenario_invalid", 17, "Invalid scenario", false},
	{"scenario_missing", 17, "Cannot read scenario file", false},
	{"scenario_set_bad_value", 20, "Invalid value for scenario_set", false},
	{"scenario_set_invalid", 19, "Invalid scenario", false},
	{"scenario_set_unknown_field", 21, "Unknown scenario field", false},
	{"scenario_set_zero_is_default", 19, "Invalid scenario", false},
	{"sensitive_no_value", 1, "No value for sensitive variable", false},
	{"service_role_no_host", 24, "No host for service role", false},
	{"setting_duplicate_key", 13, "Duplicate setting", false},
	{"setting_is_list", 13, "Invalid setting value", false},
	{"ssh_port_range", 25, "Invalid value for port", false},
	{"syntax_unclosed", 24, "Unclosed configuration block", false},
	{"two_testbeds", 24, "Duplicate testbed block", false},
	{"undeclared_variable", 13, "Unsupported attribute", false},
	{"unknown_argument", 5, "Unsupported argument", false},
	{"unknown_block", 24, "Unsupported block type", false},
	{"unknown_function", 13, "Call to unknown function", false},
	{"variable_default_type", 3, "Invalid value for variable", false},
	{"variant_each_outside_for_each", 17, "each outside for_each", false},
	{"variant_unknown_ring", 15, "Variant sets an unknown ring", false},
	{"variant_unknown_service", 16, "Variant sets an unknown service", false},
	{"warning_servers_per_port", 17, "servers_per_port without a port per disk", true},
	{"warning_shared_address", 24, "Hosts share an address", true},
	{"warning_users_below_agents", 16, "Fewer users than agents", true},
	{"warning_variant_no_workload", 16, "Variant runs no workload", true},
	{"workload_each_outside_for_each", 18, "each outside for_each", false},
	{"workload_for_each_duplicate", 18, "Duplicate workload", false},
	{"workload_for_each_empty", 17, "Empty for_each", false},
	{"workload_no_auth", 16, "Missing workload auth", false},
	{"workload_variants_unknown", 17, "Unknown variant", false},
}

func TestBrokenTestbeds(t *testing.T) {
	files, err := filepath.Glob("testdata/broken/*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(brokenCases) {
		t.Errorf("%d files under testdata/broken, %d cases: pin every file", len(files), len(brokenCases))
	}
	for _, c := range brokenCases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "broken", c.file+".hcl")
			_, diags := Load(path, LoadOptions{})
			if diags.HasErrors() == c.warning {
				t.Errorf("HasErrors = %v, want %v", diags.HasErrors(), !c.warning)
			}
			if len(diags) != 1 {
				t.Errorf("%d diagnostics, want exactly 1:\n%s", len(diags), diags.Error())
			}
			want := hcl.DiagError
			if c.warning {
				want = hcl.DiagWarning
			}
			for _, d := range diags {
				if d.Summary == c.summary && d.Severity == want && d.Subject != nil &&
					d.Subject.Start.Line == c.line && d.Subject.Filename == path {
					return
				}
			}
			t.Errorf("no %q at line %d; got:\n%s", c.summary, c.line, diags.Error())
		})
	}
}

// TestProblemsAreCollected checks that one file with many problems gets
// them all, decoding and cross-block ones together, in source order.
func TestProblemsAreCollected(t *testing.T) {
	_, diags := Load(filepath.Join("testdata", "many_problems.hcl"), LoadOptions{})
	var b strings.Builder
	if err := lang.WriteDiagnostics(&b, nil, diags); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "testdata") {
			got = append(got, strings.SplitN(l, ":", 2)[1])
		}
	}
	want := []string{
		"2,1: Role served by no service",
		"7,1: Ring disk group on no host",
		"13,13: Invalid value for manager",
		"16,7: Variant sets an unknown service",
		"19,14: Cannot read scenario file",
		"20,14: Client host lacks the client role",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
