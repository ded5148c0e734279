package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = `[DEFAULT]
# bind_ip = 0.0.0.0
bind_port = 6200
# workers = auto
# Use an integer to override the number of workers. Note = prose.
# fallocate_reserve = 1%
# node_timeout = 10
# mount_check = true

[pipeline:main]
pipeline = healthcheck proxy-server

[filter:cache]
use = egg:swift#memcache
# set log_name = cache
# container_ratelimit_0 = 100
# container_ratelimit_10 = 50

# [filter:authtoken]
# paste.filter_factory = keystonemiddleware.auth_token:filter_factory
# auth_url = http://keystonehost:5000

# [proxy-server:policy:<policy index>]
# sorting_method = shuffle

[filter:tempauth]
use = egg:swift#tempauth
#   user_<account>_<user> = <key> [group] [group] [...] [storage_url]
user_admin_admin = admin .admin
`

// TestParseSample reads every kind of line a sample has: sections commented
// out or not, defaults, the sample's own values, paste.deploy's set,
// entry points, placeholders and numbered names; prose is skipped.
func TestParseSample(t *testing.T) {
	c, err := ParseSample(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"DEFAULT", "filter:authtoken", "filter:cache", "filter:tempauth", "pipeline:main", "proxy-server:policy:*"}
	if d := cmp.Diff(want, c.SectionNames()); d != "" {
		t.Errorf("sections (-want +got):\n%s", d)
	}
	def := c.Sections["DEFAULT"].Options
	checks := map[string]Option{
		"workers":           {Default: "auto", Type: TypeIntOrAuto},
		"bind_port":         {Sample: "6200", Type: TypeInt},
		"fallocate_reserve": {Default: "1%", Type: TypePercent},
		"node_timeout":      {Default: "10", Type: TypeFloat},
		"mount_check":       {Default: "true", Type: TypeBool},
	}
	for k, w := range checks {
		if d := cmp.Diff(w, def[k]); d != "" {
			t.Errorf("%s (-want +got):\n%s", k, d)
		}
	}
	if _, prose := def["Note"]; prose || len(def) != 6 {
		t.Errorf("DEFAULT has %d options, want 6 (prose skipped): %v", len(def), def)
	}
	cache := c.Sections["filter:cache"].Options
	for _, k := range []string{"log_name", "container_ratelimit_0", "container_ratelimit_*"} {
		if _, ok := cache[k]; !ok {
			t.Errorf("filter:cache lacks %s: %v", k, cache)
		}
	}
	if _, ok := c.Sections["filter:tempauth"].Options["user_*_*"]; !ok {
		t.Errorf("tempauth's user_<account>_<user> not kept as user_*_*")
	}
	if c.Eggs["filter:memcache"] != "filter:cache" || c.Eggs["filter:tempauth"] != "filter:tempauth" {
		t.Errorf("entry points: %v", c.Eggs)
	}
}

// TestInferType tells a type from a default, and a float from a timeout's
// whole number.
func TestInferType(t *testing.T) {
	for _, tc := range []struct {
		key, def string
		want     Type
	}{
		{"workers", "auto", TypeIntOrAuto}, {"mount_check", "false", TypeBool}, {"x", "yes", TypeBool},
		{"max_clients", "1024", TypeInt}, {"conn_timeout", "0.5", TypeFloat}, {"node_timeout", "10", TypeFloat},
		{"interval", "30", TypeFloat}, {"fallocate_reserve", "1%", TypePercent}, {"log_level", "INFO", TypeString},
		{"log_anonymization_salt", "", TypeString},
	} {
		if got := inferType(tc.key, tc.def); got != tc.want {
			t.Errorf("inferType(%q, %q) = %s, want %s", tc.key, tc.def, got, tc.want)
		}
	}
}

// TestCheckValue accepts what Swift reads as the type and refuses the rest.
func TestCheckValue(t *testing.T) {
	for _, tc := range []struct {
		t    Type
		v    string
		good bool
	}{
		{TypeBool, "true", true}, {TypeBool, "Off", true}, {TypeBool, "1", true}, {TypeBool, "maybe", false},
		{TypeInt, "4", true}, {TypeInt, "four", false}, {TypeInt, "4.5", false},
		{TypeIntOrAuto, "auto", true}, {TypeIntOrAuto, "8", true}, {TypeIntOrAuto, "many", false},
		{TypeFloat, "0.5", true}, {TypeFloat, "10", true}, {TypeFloat, "soon", false},
		{TypePercent, "1%", true}, {TypePercent, "1048576", true}, {TypePercent, "lots", false},
		{TypeString, "anything at all", true},
	} {
		if got := tc.t.CheckValue(tc.v) == ""; got != tc.good {
			t.Errorf("%s.CheckValue(%q) ok = %v, want %v", tc.t, tc.v, got, tc.good)
		}
	}
}

// TestNearest suggests typos' intended names, nearest first, and nothing
// for a name far from all.
func TestNearest(t *testing.T) {
	names := []string{"workers", "servers_per_port", "mount_check", "DEFAULT", "app:object-server", "max_clients"}
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"wokers", []string{"workers"}}, {"wokrers", []string{"workers"}}, {"DEFALUT", []string{"DEFAULT"}},
		{"app:object-srever", []string{"app:object-server"}}, {"mount-check", []string{"mount_check"}},
		{"default", []string{"DEFAULT"}}, {"replication_server", nil},
	} {
		if d := cmp.Diff(tc.want, Nearest(tc.s, names, 3)); d != "" {
			t.Errorf("Nearest(%q) (-want +got):\n%s", tc.s, d)
		}
	}
}

// policies is swift.conf's sample shape: policy 0 set, 1 and 2 commented
// out with other values for the same keys.
const policies = `[storage-policy:0]
name = Policy-0
#policy_type = replication
#[storage-policy:2]
#name = deepfreeze10-4
#policy_type = erasure_coding
#[storage-policy:1]
#name = silver
#policy_type = replication
#diskfile_module = egg:swift#replication.fs
`

// TestNumberedSectionsMergeInOrder checks that storage-policy:* takes each
// option from the lowest-numbered policy that has it, every time: the
// merge once followed the map's order, and CI's fresh parse of Debian's
// samples saw erasure_coding where the carried catalog had replication.
func TestNumberedSectionsMergeInOrder(t *testing.T) {
	want := map[string]Option{
		"name":            {Sample: "Policy-0", Type: TypeString},
		"policy_type":     {Default: "replication", Type: TypeString},
		"diskfile_module": {Default: "egg:swift#replication.fs", Type: TypeString},
	}
	for range 50 {
		c, err := ParseSample(strings.NewReader(policies))
		if err != nil {
			t.Fatal(err)
		}
		pat := c.Sections["storage-policy:*"]
		if pat == nil {
			t.Fatalf("no storage-policy:*: %v", c.SectionNames())
		}
		for k, w := range want {
			if d := cmp.Diff(w, pat.Options[k]); d != "" {
				t.Fatalf("storage-policy:* %s (-want +got):\n%s", k, d)
			}
		}
	}
}
