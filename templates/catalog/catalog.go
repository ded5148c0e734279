package catalog

import (
	"maps"
	"slices"
	"strings"
)

// Catalog is every option of one Swift version, by conf file.
type Catalog struct {
	Version string           `json:"version"` // Swift's version, e.g. "2.30.1"
	Source  string           `json:"source"`  // where the sample confs came from
	Confs   map[string]*Conf `json:"confs"`   // "object-server", "proxy-server", ...
}

// Conf is the options of one conf file (object-server.conf, ...).
type Conf struct {
	// Sections by name: "DEFAULT", "app:object-server", "object-replicator",
	// "filter:cache"; a sample's placeholder (<policy index>) is "*".
	Sections map[string]*Section `json:"sections"`
	// Eggs maps a paste.deploy entry point ("filter:memcache" for use =
	// egg:swift#memcache in a filter section) to the sample section that
	// uses it, so that a section renamed in a testbed is still checked.
	Eggs map[string]string `json:"eggs,omitempty"`
}

// Section is the options of one section.
type Section struct {
	Options map[string]Option `json:"options"`
}

// Option is one key a section reads.
type Option struct {
	// Default is the value Swift uses when the key is unset, as the sample
	// documents it ("# key = default"); "" when the sample shows none.
	Default string `json:"default,omitempty"`
	// Sample is the value the sample sets on an uncommented line (a
	// choice of the sample, such as a pipeline, not necessarily Swift's
	// default); "" for a commented option.
	Sample string `json:"sample,omitempty"`
	Type   Type   `json:"type"`
}

// HasDefault reports whether the sample documents a default for o.
func (o Option) HasDefault() bool { return o.Sample == "" && o.Default != "" }

// Conf returns the catalog's conf named name ("object-server" or
// "object-server.conf"), or nil.
func (c *Catalog) Conf(name string) *Conf {
	if c == nil {
		return nil
	}
	return c.Confs[strings.TrimSuffix(name, ".conf")]
}

// ConfNames returns the catalog's conf names, sorted.
func (c *Catalog) ConfNames() []string { return slices.Sorted(maps.Keys(c.Confs)) }

// SectionNames returns the conf's section names, sorted.
func (c *Conf) SectionNames() []string { return slices.Sorted(maps.Keys(c.Sections)) }

// section returns the sample section that name means: the section of that
// name, a placeholder section it matches (proxy-server:policy:* for
// proxy-server:policy:1), or nil.
func (c *Conf) section(name string) *Section {
	if s := c.Sections[name]; s != nil {
		return s
	}
	for pat, s := range c.Sections {
		if matchPlaceholder(pat, name) {
			return s
		}
	}
	return nil
}

// matchPlaceholder reports whether name matches pat, whose "*" stands for
// one non-empty part without ':'.
func matchPlaceholder(pat, name string) bool {
	pre, post, ok := strings.Cut(pat, "*")
	if !ok || len(name) <= len(pre)+len(post) {
		return false
	}
	mid := name[len(pre) : len(name)-len(post)]
	return strings.HasPrefix(name, pre) && strings.HasSuffix(name, post) && mid != "" && !strings.Contains(mid, ":")
}

// allKeys returns every key any section of the conf reads: what its
// [DEFAULT] may set, since paste.deploy and Swift's readconf hand DEFAULT's
// values to every section.
func (c *Conf) allKeys() map[string]Option {
	out := map[string]Option{}
	for _, name := range c.SectionNames() {
		for k, o := range c.Sections[name].Options {
			if _, ok := out[k]; !ok || name == "DEFAULT" {
				out[k] = o
			}
		}
	}
	return out
}
