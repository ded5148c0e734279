package templates

import (
	"fmt"

	"benchbed/templates/secrets"
)

// Change is one key whose value differs between two files. Old is nil for
// an added key, New for a removed one.
type Change struct {
	Section string
	Key     string
	Old     *Entry
	New     *Entry
}

// Diff returns the changes from a to b: sections and keys in b's order
// (then a's removed ones), values compared exactly.
func Diff(a, b *File) []Change {
	var out []Change
	for _, s := range b.Sections {
		for _, e := range s.Entries {
			old := a.Get(s.Name, e.Key)
			if old == nil || old.Value != e.Value {
				out = append(out, Change{Section: s.Name, Key: e.Key, Old: old, New: e})
			}
		}
	}
	for _, s := range a.Sections {
		for _, e := range s.Entries {
			if b.Get(s.Name, e.Key) == nil {
				out = append(out, Change{Section: s.Name, Key: e.Key, Old: e})
			}
		}
	}
	return out
}

// Format gives "key: old -> new" with the source of each value, masking
// sensitive values (a nil m masks by key and token only): "workers: 29 (a.hcl:40 (settings)) -> 6 (a.hcl:80 (set))".
// An added key shows "(unset)" on the left, a removed one on the right.
func (c Change) Format(m *secrets.Set) string {
	return fmt.Sprintf("%s: %s -> %s", c.Key, side(c.Section, c.Old, m), side(c.Section, c.New, m))
}

func side(section string, e *Entry, m *secrets.Set) string {
	if e == nil {
		return "(unset)"
	}
	v := m.Entry(section, e.Key, e.Value, e.Sensitive)
	if v == "" {
		v = `""`
	}
	if src := e.Source.String(); src != "" {
		return v + " (" + src + ")"
	}
	return v
}
