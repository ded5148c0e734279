package render

import (
	"bytes"
	"strings"

	"benchbed/templates"
)

// diffGeneric adds to d the generic confs that differ between a and b:
// the lines that differ, as a unified diff's hunks give them.
func (d *VariantDiff) diffGeneric(groups map[string]int, a, b *Rendering) {
	for _, cb := range b.Generic {
		fd := FileDiff{Path: cb.Path}
		ca := a.GenericConf(cb.Host.Name, cb.Path)
		switch {
		case ca == nil:
			fd.Only = "B"
		case bytes.Equal(ca.Content, cb.Content):
			continue
		default:
			fd.Lines = changedLines(string(ca.Content), string(cb.Content))
		}
		d.addFile(groups, cb.Host.Name, fd)
	}
	for _, ca := range a.Generic {
		if b.GenericConf(ca.Host.Name, ca.Path) == nil {
			d.addFile(groups, ca.Host.Name, FileDiff{Path: ca.Path, Only: "A"})
		}
	}
}

// changedLines are the "-old" and "+new" lines of a unified diff of a and b.
func changedLines(a, b string) []string {
	var out []string
	for _, l := range strings.Split(templates.Unified("a", "b", a, b), "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "+++ ") {
			out = append(out, l)
		}
	}
	return out
}
