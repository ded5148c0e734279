package catalog

import (
	"strings"
	"testing"
)

// mustLoad loads a carried catalog or fails.
func mustLoad(t *testing.T, version string) *Catalog {
	t.Helper()
	c, err := Load(version)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCheckFindsTheMistakes runs the mistakes a newcomer makes, and real
// options that must pass, through the catalog of Swift 2.30.1.
func TestCheckFindsTheMistakes(t *testing.T) {
	c := mustLoad(t, "2.30.1")
	for _, tc := range []struct {
		conf, section, use, key, value string
		want                           Kind
		suggest, says                  string
	}{
		{"object-server", "DEFAULT", "", "workers", "4", Known, "", ""},
		{"object-server", "DEFAULT", "", "wokers", "4", UnknownKey, "workers", ""},
		{"object-server", "DEFALUT", "", "workers", "4", UnknownSection, "DEFAULT", ""},
		{"object-server", "app:object-srever", "", "mb_per_sync", "4", UnknownSection, "app:object-server", ""},
		{"object-server", "DEFAULT", "", "workers", "four", BadValue, "", "an integer or auto"},
		{"object-server", "DEFAULT", "", "mount_check", "maybe", BadValue, "", "read it as false"},
		{"object-server", "DEFAULT", "", "threads_per_disk", "1", Retired, "", "removed in Swift 2.8.0"},
		{"object-server", "app:object-server", "", "object_chunk_size", "65536", UnknownKey, "", "proxy-server.conf's [app:proxy-server]"},
		{"object-server", "object-replicator", "", "concurrency", "4", Known, "", ""},
		{"object-server", "object-replicator", "", "log_level", "DEBUG", Known, "", ""},
		{"object-server", "app:object-server", "", "mount_check", "true", Known, "", ""},
		{"proxy-server", "filter:cache", "", "memcache_servers", "127.0.0.1:11211", Known, "", ""},
		{"proxy-server", "filter:cache", "", "max_connections", "10", Known, "", ""},
		{"proxy-server", "filter:cache", "", "io_timeout", "1.5", Known, "", ""},
		{"proxy-server", "filter:memcache", "egg:swift#memcache", "memcache_servers", "x", Known, "", ""},
		{"proxy-server", "filter:memcahce", "", "memcache_servers", "x", UnknownSection, "filter:memcache", ""},
		{"proxy-server", "filter:tempauth", "", "user_bench_bench", "k .admin", Known, "", ""},
		{"proxy-server", "filter:s3api", "", "location", "us-east-1", Known, "", ""},
		{"proxy-server", "filter:mine", "egg:mine#mw", "anything", "1", Known, "", ""},
		{"proxy-server", "proxy-server:policy:1", "", "sorting_method", "affinity", Known, "", ""},
		{"proxy-server", "app:proxy-server", "", "object_chunk_size", "big", BadValue, "", "an integer"},
		{"swift", "storage-policy:3", "", "ec_num_parity_fragments", "2", Known, "", ""},
		{"swift", "swift-constraints", "", "max_file_size", "5368709122", Known, "", ""},
	} {
		ref, f := c.Section(tc.conf, tc.section, tc.use)
		if !f.Error() {
			f = ref.Check(tc.key, tc.value)
		}
		name := tc.conf + " [" + tc.section + "] " + tc.key + " = " + tc.value
		if f.Kind != tc.want {
			t.Errorf("%s: kind %d, want %d (%s)", name, f.Kind, tc.want, f.Message)
			continue
		}
		if tc.suggest != "" && (len(f.Suggest) == 0 || f.Suggest[0] != tc.suggest) {
			t.Errorf("%s: suggests %v, want %s first", name, f.Suggest, tc.suggest)
		}
		if !strings.Contains(f.Message, tc.says) {
			t.Errorf("%s: says %q, want it to say %q", name, f.Message, tc.says)
		}
	}
}

// TestVersionsDiffer checks that each carried catalog is its own version's:
// an option a later Swift added is unknown to an earlier one.
func TestVersionsDiffer(t *testing.T) {
	want := []string{"2.29.2", "2.30.1", "2.33.0", "2.35.0", "2.36.0"}
	if got := strings.Join(Versions(), " "); got != strings.Join(want, " ") {
		t.Fatalf("Versions() = %s, want %s", got, strings.Join(want, " "))
	}
	added := 0
	old, cur := mustLoad(t, "2.29.2"), mustLoad(t, "2.36.0")
	for _, conf := range cur.ConfNames() {
		for _, sn := range cur.Confs[conf].SectionNames() {
			for k := range cur.Confs[conf].Sections[sn].Options {
				if oc := old.Conf(conf); oc != nil && oc.Sections[sn] != nil {
					if _, ok := oc.Sections[sn].Options[k]; !ok {
						added++
					}
				}
			}
		}
	}
	if added == 0 {
		t.Error("Swift 2.36.0's catalog has no option 2.29.2's lacks: the catalogs are not per version")
	}
	anyc, err := Any()
	if err != nil || !strings.HasPrefix(anyc.Name(), "Swift 2.29.2 to 2.36.0") {
		t.Errorf("Any: %v, %v", anyc.Name(), err)
	}
}

// TestUses reads a template's entry points, actions and all.
func TestUses(t *testing.T) {
	got := Uses("[DEFAULT]\nbind_port = {{.Port}}\n[filter:cache]\nuse = egg:swift#memcache\n{{if .X}}\n[app:proxy-server]\nuse = egg:swift#proxy\n{{end}}\n")
	if got["filter:cache"] != "egg:swift#memcache" || got["app:proxy-server"] != "egg:swift#proxy" || len(got) != 2 {
		t.Errorf("Uses = %v", got)
	}
}
