package catalog

import (
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"benchbed/templates"
)

//go:embed data/swift-*.json
var dataFS embed.FS

// Versions returns the Swift versions whose catalogs benchbed carries,
// oldest first.
func Versions() []string {
	ents, _ := dataFS.ReadDir("data")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(strings.TrimPrefix(e.Name(), "swift-"), ".json"))
	}
	slices.SortFunc(out, templates.CompareVersions)
	return out
}

// loaded are the carried catalogs read so far, by version: each is read
// once and shared, read only (nothing changes a Catalog after it is made).
var loaded sync.Map

// Load returns the carried catalog of Swift version (e.g. "2.30.1"); a
// version benchbed does not carry is an error naming those it does. The
// catalog is shared: callers must not change it.
func Load(version string) (*Catalog, error) {
	if c, ok := loaded.Load(version); ok {
		return c.(*Catalog), nil
	}
	c, err := load(version)
	if err == nil {
		loaded.Store(version, c)
	}
	return c, err
}

// load reads the carried catalog of version.
func load(version string) (*Catalog, error) {
	b, err := dataFS.ReadFile("data/swift-" + version + ".json")
	if err != nil {
		return nil, fmt.Errorf("no catalog of Swift %s's options; benchbed carries %s (cmd/swiftcatalog makes one from a Swift's sample confs)",
			version, strings.Join(Versions(), ", "))
	}
	return Decode(b)
}

// Decode reads a catalog written by Encode.
func Decode(b []byte) (*Catalog, error) {
	c := &Catalog{}
	if err := json.Unmarshal(b, c); err != nil {
		return nil, fmt.Errorf("reading a catalog: %w", err)
	}
	if c.Version == "" || len(c.Confs) == 0 {
		return nil, fmt.Errorf("reading a catalog: no version or no conf")
	}
	return c, nil
}

// Encode writes c as indented JSON, keys sorted, so that a regenerated
// catalog diffs line by line.
func (c *Catalog) Encode() ([]byte, error) {
	b, err := json.MarshalIndent(c, "", " ")
	return append(b, '\n'), err
}

// Any is the union of every carried catalog: a key any of those Swift
// versions reads is known, with the newest one's default and type. It is
// what a testbed that names no Swift version is checked against; each
// host is then checked against its own Swift by preflight. Made once and
// shared: callers must not change it.
var Any = sync.OnceValues(union)

// union merges every carried catalog, the newest first.
func union() (*Catalog, error) {
	vs := Versions()
	out := &Catalog{Version: anyPrefix + strings.Join(vs, ", "), Source: "the union of benchbed's catalogs", Confs: map[string]*Conf{}}
	for i := len(vs) - 1; i >= 0; i-- {
		c, err := Load(vs[i])
		if err != nil {
			return nil, err
		}
		out.Merge(c)
	}
	return out, nil
}

// anyPrefix starts the Version of the union of catalogs.
const anyPrefix = "any of "

// Name is how messages name the catalog: "Swift 2.30.1", or "Swift
// 2.29.2 to 2.36.0" for the union of carried catalogs.
func (c *Catalog) Name() string {
	if vs, ok := strings.CutPrefix(c.Version, anyPrefix); ok {
		parts := strings.Split(vs, ", ")
		return "Swift " + parts[0] + " to " + parts[len(parts)-1]
	}
	return "Swift " + c.Version
}

// Merge adds to c the confs, sections, options and entry points of o that
// c lacks; what c has stays as it is.
func (c *Catalog) Merge(o *Catalog) {
	for name, oc := range o.Confs {
		cc := c.Confs[name]
		if cc == nil {
			cc = &Conf{Sections: map[string]*Section{}, Eggs: map[string]string{}}
			c.Confs[name] = cc
		}
		for egg, sec := range oc.Eggs {
			if _, ok := cc.Eggs[egg]; !ok {
				cc.Eggs[egg] = sec
			}
		}
		for sn, os := range oc.Sections {
			cs := cc.add(sn)
			for k, opt := range os.Options {
				if _, ok := cs.Options[k]; !ok {
					cs.Options[k] = opt
				}
			}
		}
	}
}

// SampleConf maps a sample file's name (object-server.conf-sample,
// Debian's object-server.conf) to the conf it documents, or "" for a file
// that is no conf of Swift's INI (rsyncd.conf, mime.types, the rsyslog
// sample).
func SampleConf(file string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(path.Base(file), "-sample"), ".gz")
	name, ok := strings.CutSuffix(base, ".conf")
	if !ok || name == "rsyncd" || name == "swift-rsyslog" {
		return ""
	}
	return name
}

// FromSamples builds the catalog of Swift version from its sample confs
// (file name -> content); files that are no Swift conf are skipped.
func FromSamples(version, source string, files map[string]io.Reader) (*Catalog, error) {
	c := &Catalog{Version: version, Source: source, Confs: map[string]*Conf{}}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		name := SampleConf(f)
		if name == "" {
			continue
		}
		cf, err := ParseSample(files[f])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		c.Confs[name] = cf
	}
	if len(c.Confs) == 0 {
		return nil, fmt.Errorf("no Swift sample conf among %d files", len(files))
	}
	c.applyExtras()
	return c, nil
}
