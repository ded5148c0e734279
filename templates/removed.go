package templates

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Retired is a Swift option that a release deprecated, renamed or removed.
type Retired struct {
	Key         string   // the option
	Sections    []string // where it was read; nil = any section
	Deprecated  string   // Swift release that deprecated it ("" = none)
	Removed     string   // Swift release that stopped reading it ("" = still read)
	Replacement string   // what to use instead, free text
}

// RetiredOptions is the table CheckRemoved reads (from Swift's CHANGELOG
// and code up to 2.30.1).
var RetiredOptions = []Retired{
	{Key: "threads_per_disk", Sections: []string{"DEFAULT", "app:object-server"},
		Deprecated: "2.4.0", Removed: "2.8.0", Replacement: "servers_per_port with one ring port per disk"},
	{Key: "object_post_as_copy", Sections: []string{"DEFAULT", "app:proxy-server"},
		Deprecated: "2.13.0", Removed: "2.16.0", Replacement: "nothing, POST is always fast-POST"},
	{Key: "put_queue_depth", Sections: []string{"DEFAULT", "app:proxy-server"},
		Removed: "2.24.0", Replacement: "nothing, the proxy no longer queues PUT chunks"},
	{Key: "allow_versions", Sections: []string{"DEFAULT", "app:container-server"},
		Deprecated: "2.16.0", Replacement: "the versioned_writes middleware in the proxy"},
	{Key: "run_pause", Sections: []string{"object-replicator", "container-replicator", "account-replicator", "object-reconstructor"},
		Deprecated: "2.4.0", Replacement: "interval"},
	{Key: "replication_one_per_device", Sections: []string{"DEFAULT", "app:object-server"},
		Deprecated: "2.16.0", Replacement: "replication_concurrency_per_device"},
	{Key: "auto_create_account_prefix", Sections: []string{"DEFAULT", "app:proxy-server", "app:object-server",
		"app:container-server", "app:account-server", "container-sharder", "object-expirer"},
		Deprecated: "2.24.0", Removed: "2.33.0", Replacement: "auto_create_account_prefix in swift.conf's [swift-constraints]"},
}

// CheckRemoved warns about every option of f that the target Swift no
// longer reads (or has deprecated). version is the target's Swift version,
// e.g. "2.30.1"; "" assumes a current Swift.
func CheckRemoved(f *File, version string) []Warning {
	var warns []Warning
	for _, s := range f.Sections {
		for _, e := range s.Entries {
			if msg := RetiredMessage(s.Name, e.Key, version); msg != "" {
				warns = append(warns, Warning{File: f.Name, Section: s.Name, Key: e.Key, Source: e.Source, Message: msg})
			}
		}
	}
	return warns
}

// RetiredMessage says how Swift version (or a current Swift, for "")
// treats key in section when RetiredOptions lists it there, and what to use
// instead; "" when the option is not retired.
func RetiredMessage(section, key, version string) string {
	for _, r := range RetiredOptions {
		if r.Key != key || (r.Sections != nil && !slices.Contains(r.Sections, section)) {
			continue
		}
		target := "the target's Swift"
		if version != "" {
			target = "Swift " + version
		}
		switch {
		case r.Removed != "" && (version == "" || !versionLess(version, r.Removed)):
			return fmt.Sprintf("removed in Swift %s: %s ignores it; instead: %s", r.Removed, target, r.Replacement)
		case r.Deprecated != "" && (version == "" || !versionLess(version, r.Deprecated)):
			return fmt.Sprintf("deprecated since Swift %s; instead: %s", r.Deprecated, r.Replacement)
		}
	}
	return ""
}

// versionLess reports whether dotted version a is below b.
func versionLess(a, b string) bool { return CompareVersions(a, b) < 0 }

// CompareVersions orders dotted versions numerically ("2.9.0" < "2.10.0"):
// negative when a is below b, 0 when equal, positive above.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}
