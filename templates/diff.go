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
	// Default is Swift's documented default for the key, shown on the
	// side that leaves it unset ("" when unknown).
	Default string
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
// An added key shows "(unset)" on the left, a removed one on the right,
// with Swift's default when Default has it: "workers: auto (unset:
// Swift's default) -> 4 (a.hcl:80 (set))".
func (c Change) Format(m *secrets.Set) string {
	return fmt.Sprintf("%s: %s -> %s", c.Key, c.side(c.Old, m), c.side(c.New, m))
}

// side is one side of the change: its value and source, or for an unset
// key "(unset)" or Swift's default.
func (c Change) side(e *Entry, m *secrets.Set) string {
	if e == nil && c.Default != "" {
		return m.Entry(c.Section, c.Key, c.Default, false) + " (unset: Swift's default)"
	}
	if e == nil {
		return "(unset)"
	}
	section := c.Section
	v := m.Entry(section, e.Key, e.Value, e.Sensitive)
	if v == "" {
		v = `""`
	}
	if src := e.Source.String(); src != "" {
		return v + " (" + src + ")"
	}
	return v
}
