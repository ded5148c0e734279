package render

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"benchbed/plan"
	"benchbed/templates"
	"benchbed/templates/secrets"
)

// diffGeneric adds to d the generic confs that differ between a and b:
// the lines that differ, as a unified diff's hunks give them, masked by m
// (secrets.Set.Conf: secret-named keys in every format, then m's values).
func (d *VariantDiff) diffGeneric(groups map[string]int, a, b *Rendering, m *secrets.Set) {
	for _, cb := range b.Generic {
		fd := FileDiff{Path: cb.Path}
		ca := a.GenericConf(cb.Host.Name, cb.Path)
		switch {
		case ca == nil:
			fd.Only = "B"
		case bytes.Equal(ca.Content, cb.Content):
			continue
		default:
			fd.Lines = changedLines(m.Conf(string(ca.Content)), m.Conf(string(cb.Content)))
			if len(fd.Lines) == 0 {
				fd.Lines = []string{"~" + secrets.Masked + " (only sensitive values differ)"}
			}
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

// GenericRunDiff says how the generic services run differently in
// variant b than in a: their flags and after_start commands, one line
// each ("nginx: flags [-g daemon off;] -> [-g daemon off; -e stderr]").
func GenericRunDiff(tb *plan.Testbed, a, b *plan.Variant) []string {
	var out []string
	for _, g := range tb.Generics {
		if fa, fb := g.FlagsIn(a), g.FlagsIn(b); !slices.Equal(fa, fb) {
			out = append(out, fmt.Sprintf("%s: flags %q -> %q", g.Name, fa, fb))
		}
		if sa, sb := g.AfterStartIn(a), g.AfterStartIn(b); !slices.Equal(sa, sb) {
			out = append(out, fmt.Sprintf("%s: after_start %q -> %q", g.Name, sa, sb))
		}
	}
	return out
}
