package templates

import (
	"fmt"
	"strings"
)

// Source says where a value came from.
type Source struct {
	Layer string // "template", "settings", "set", "host" or "file"
	File  string // template name or path, or the HCL file
	Line  int    // 1-based; 0 when unknown
}

// String gives "file:line (layer)", or less when parts are unknown.
func (s Source) String() string {
	loc := s.File
	if s.Line > 0 {
		loc = fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	switch {
	case s.Layer == "":
		return loc
	case loc == "":
		return s.Layer
	}
	return loc + " (" + s.Layer + ")"
}

// File is a parsed or rendered INI file.
type File struct {
	Name     string     // template name or file path, for messages
	Head     []string   // comment and blank lines before the first section
	Sections []*Section // in file order
	Tail     []string   // comment and blank lines after the last entry
}

// Section is one [name] of a File.
type Section struct {
	Name     string   // e.g. "DEFAULT", "app:object-server"
	Comments []string // comment lines (with their # or ;) right before the header
	Entries  []*Entry // in file order
	Line     int      // line of the header in its source, 0 when added by an overlay
}

// Entry is one key = value of a Section.
type Entry struct {
	Key       string
	Value     string
	Comments  []string // comment lines right before the entry
	Sensitive bool     // mask the value in everything printed
	Source    Source   // where the value came from
}

// Section returns the section named name, or nil.
func (f *File) Section(name string) *Section {
	for _, s := range f.Sections {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Get returns the entry key of section, or nil.
func (f *File) Get(section, key string) *Entry {
	if s := f.Section(section); s != nil {
		return s.Get(key)
	}
	return nil
}

// Value returns the value of key in section and whether it is set.
func (f *File) Value(section, key string) (string, bool) {
	if e := f.Get(section, key); e != nil {
		return e.Value, true
	}
	return "", false
}

// AddSection returns the section named name, appending it when missing.
func (f *File) AddSection(name string) *Section {
	if s := f.Section(name); s != nil {
		return s
	}
	s := &Section{Name: name}
	f.Sections = append(f.Sections, s)
	return s
}

// Set gives key of section the value v, keeping the entry's place and
// comments when it exists and appending it (and the section) otherwise. It
// returns a copy of the previous entry, or nil.
func (f *File) Set(section, key string, v Value) *Entry {
	return f.AddSection(section).Set(key, v)
}

// Get returns the entry named key, or nil. Keys match without regard to
// case, as Swift's config parsers lower-case them; section names are exact.
func (s *Section) Get(key string) *Entry {
	for _, e := range s.Entries {
		if strings.EqualFold(e.Key, key) {
			return e
		}
	}
	return nil
}

// Set gives key the value v; see File.Set.
func (s *Section) Set(key string, v Value) *Entry {
	if e := s.Get(key); e != nil {
		old := *e
		e.Value, e.Sensitive, e.Source = v.Value, v.Sensitive, v.Source
		return &old
	}
	s.Entries = append(s.Entries, &Entry{Key: key, Value: v.Value, Sensitive: v.Sensitive, Source: v.Source})
	return nil
}

// Delete removes key from section; it reports whether it was there.
func (f *File) Delete(section, key string) bool {
	s := f.Section(section)
	if s == nil {
		return false
	}
	for i, e := range s.Entries {
		if strings.EqualFold(e.Key, key) {
			s.Entries = append(s.Entries[:i], s.Entries[i+1:]...)
			return true
		}
	}
	return false
}

// Clone returns a deep copy of f.
func (f *File) Clone() *File {
	c := &File{Name: f.Name, Head: append([]string(nil), f.Head...), Tail: append([]string(nil), f.Tail...)}
	for _, s := range f.Sections {
		cs := &Section{Name: s.Name, Line: s.Line, Comments: append([]string(nil), s.Comments...)}
		for _, e := range s.Entries {
			ce := *e
			ce.Comments = append([]string(nil), e.Comments...)
			cs.Entries = append(cs.Entries, &ce)
		}
		c.Sections = append(c.Sections, cs)
	}
	return c
}
