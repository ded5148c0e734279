package templates

import (
	"fmt"
	"maps"
	"slices"

	"benchbed/templates/secrets"
)

// Value is one overlaid value and where it came from.
type Value struct {
	Value     string
	Sensitive bool
	Source    Source
}

// Layer is one overlay: section -> key -> value. Layers apply in order
// (the service's settings, the variant's set, then the host's facts); a later
// layer wins. Keys a template lacks are appended to their section in sorted
// order, sections it lacks after its own, sorted too.
type Layer struct {
	Name   string // "settings", "set", "host": the Source layer of its values
	Values map[string]map[string]Value
	// Enforced layers (the host's facts) warn when they replace a value an
	// earlier layer (not the template) set differently.
	Enforced bool
}

// Add sets section/key to v in l, creating maps as needed.
func (l *Layer) Add(section, key string, v Value) {
	if l.Values == nil {
		l.Values = map[string]map[string]Value{}
	}
	if l.Values[section] == nil {
		l.Values[section] = map[string]Value{}
	}
	if v.Source.Layer == "" {
		v.Source.Layer = l.Name
	}
	l.Values[section][key] = v
}

// Apply overlays the layers on f in order and returns the warnings of
// enforced layers that replaced a setting.
func (f *File) Apply(layers ...Layer) []Warning {
	var warns []Warning
	for _, l := range layers {
		for _, sec := range slices.Sorted(maps.Keys(l.Values)) {
			for _, key := range slices.Sorted(maps.Keys(l.Values[sec])) {
				v := l.Values[sec][key]
				if v.Source.Layer == "" {
					v.Source.Layer = l.Name
				}
				dropTemplateAlias(f, sec, key)
				old := f.Set(sec, key, v)
				if l.Enforced && old != nil && old.Value != v.Value && old.Source.Layer != "template" {
					warns = append(warns, Warning{
						File: f.Name, Section: sec, Key: key, Source: old.Source,
						Message: fmt.Sprintf("%s replaces this setting with %s from the host", key, maskIf(v)),
					})
				}
			}
		}
	}
	return warns
}

// Aliases are pairs of option names Swift reads for the same thing (the
// first wins when both are set).
var Aliases = [][2]string{
	{"memcache_max_connections", "max_connections"}, // [filter:cache]
}

// dropTemplateAlias removes the template's default for an alias of key, so
// that a setting under either name is the one Swift uses.
func dropTemplateAlias(f *File, sec, key string) {
	for _, a := range Aliases {
		other := ""
		switch key {
		case a[0]:
			other = a[1]
		case a[1]:
			other = a[0]
		}
		if e := f.Get(sec, other); other != "" && e != nil && e.Source.Layer == "template" {
			f.Delete(sec, other)
		}
	}
}

func maskIf(v Value) string {
	if v.Sensitive {
		return secrets.Masked
	}
	return fmt.Sprintf("%q", v.Value)
}

// Warning is something a rendering should tell its user without failing.
type Warning struct {
	Host    string // filled by callers that render for hosts
	File    string // the rendered file (template name or path)
	Section string
	Key     string
	Source  Source // where the value warned about came from
	Message string
}

// String gives "host: file [section] key: message (source)".
func (w Warning) String() string {
	s := w.File
	if w.Host != "" {
		s = w.Host + ": " + s
	}
	if w.Section != "" {
		s += " [" + w.Section + "]"
	}
	if w.Key != "" {
		s += " " + w.Key
	}
	s += ": " + w.Message
	if src := w.Source.String(); src != "" {
		s += " (" + src + ")"
	}
	return s
}
