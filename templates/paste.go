package templates

import (
	"fmt"
	"strings"
)

// Kinds of paste.deploy sections (the part before the colon).
const (
	KindPipeline  = "pipeline"
	KindApp       = "app"
	KindFilter    = "filter"
	KindComposite = "composite"
	KindPlain     = "" // DEFAULT and the daemons' own sections, e.g. object-replicator
)

// Kind returns the paste.deploy kind of a section name and its short name:
// "filter:cache" gives ("filter", "cache"), "object-auditor" gives ("", "object-auditor").
func Kind(section string) (kind, name string) {
	k, n, ok := strings.Cut(section, ":")
	if !ok {
		return KindPlain, section
	}
	switch k {
	case KindPipeline, KindApp, KindFilter, KindComposite:
		return k, n
	}
	return KindPlain, section // e.g. storage-policy:0 in swift.conf
}

// Pipeline returns the names in [pipeline:main]'s pipeline, or nil.
func (f *File) Pipeline() []string {
	v, ok := f.Value("pipeline:main", "pipeline")
	if !ok {
		return nil
	}
	return strings.Fields(v)
}

// IsPaste reports whether f is a paste.deploy file (a server conf).
func (f *File) IsPaste() bool {
	for _, s := range f.Sections {
		if k, _ := Kind(s.Name); k != KindPlain {
			return true
		}
	}
	return false
}

// CheckPaste returns what paste.deploy would refuse in a server conf: a
// pipeline element with no [filter:x] section (or, last, no [app:x]), and
// filter or app sections without "use". Errors are warnings here: a testbed
// may record a pipeline of middleware its target has (seed 000's SwiftStack
// filters) that this machine's Swift lacks.
func (f *File) CheckPaste() []Warning {
	if !f.IsPaste() {
		return nil
	}
	var warns []Warning
	warn := func(sec, key, msg string) {
		w := Warning{File: f.Name, Section: sec, Key: key, Message: msg}
		if e := f.Get(sec, key); e != nil {
			w.Source = e.Source
		}
		warns = append(warns, w)
	}
	p := f.Pipeline()
	if p == nil && f.Section("pipeline:main") == nil {
		warn("", "", "no [pipeline:main] section: Swift's servers load the pipeline named main")
	}
	for i, name := range p {
		sec := "filter:" + name
		if i == len(p)-1 {
			sec = "app:" + name
		}
		if f.Section(sec) == nil {
			warn("pipeline:main", "pipeline", fmt.Sprintf("names %q but there is no [%s] section: Swift will refuse to load it", name, sec))
		}
	}
	for _, s := range f.Sections {
		if k, _ := Kind(s.Name); (k == KindFilter || k == KindApp) && s.Get("use") == nil && s.Get("paste.filter_factory") == nil && s.Get("paste.app_factory") == nil {
			warn(s.Name, "", "has no \"use\" (e.g. use = egg:swift#...): paste.deploy cannot load it")
		}
	}
	return warns
}
