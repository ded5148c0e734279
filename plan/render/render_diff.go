package render

import (
	"fmt"
	"io"
	"strings"

	"benchbed/plan"
	"benchbed/templates"
	"benchbed/templates/secrets"
)

// VariantDiff is what changes on the hosts from one rendering to another.
type VariantDiff struct {
	A, B      string     // variant names
	Files     []FileDiff // in host order, hosts with identical changes grouped
	RingModes []string   // "ring object: one port per host (6200) -> one port per disk from 6210"
	Ports     []PortChange
}

// FileDiff is one file's changes on a group of hosts.
type FileDiff struct {
	Hosts   []string
	Path    string
	Only    string // "A" or "B" when only that rendering has the file, else ""
	Changes []templates.Change
	// Lines are a plain (not INI) generic conf's changed lines, "-old"
	// and "+new".
	Lines []string
}

// Empty reports whether the two renderings are the same.
func (d *VariantDiff) Empty() bool {
	return len(d.Files) == 0 && len(d.RingModes) == 0 && len(d.Ports) == 0
}

// DiffRenderings compares two renderings of the same testbed.
func DiffRenderings(a, b *Rendering) *VariantDiff {
	d := &VariantDiff{A: variantName(a.Variant), B: variantName(b.Variant)}
	groups := map[string]int{} // path + changes -> index in d.Files
	for _, cb := range b.Confs {
		fd := FileDiff{Path: cb.Path}
		if ca := a.Conf(cb.Host.Name, cb.Path); ca == nil {
			fd.Only = "B"
		} else if fd.Changes = templates.Diff(ca.File, cb.File); len(fd.Changes) == 0 {
			continue
		}
		swiftDefaults(b.Catalog, cb, fd.Changes)
		d.addFile(groups, cb.Host.Name, fd)
	}
	for _, ca := range a.Confs {
		if b.Conf(ca.Host.Name, ca.Path) == nil {
			d.addFile(groups, ca.Host.Name, FileDiff{Path: ca.Path, Only: "A"})
		}
	}
	d.diffGeneric(groups, a, b, nil) // values are masked when printed
	d.RingModes, d.Ports = DiffLayouts(a.Layout, b.Layout)
	return d
}

func variantName(v *plan.Variant) string {
	if v == nil {
		return "(no variant)"
	}
	return v.Name
}

// addFile adds host's diff of a file, joining the group of hosts whose
// changes to that file are the same.
func (d *VariantDiff) addFile(groups map[string]int, host string, fd FileDiff) {
	var sig strings.Builder
	sig.WriteString(fd.Path + "\x00" + fd.Only)
	for _, c := range fd.Changes {
		fmt.Fprintf(&sig, "\x00%s\x00%s\x00%s\x00%s", c.Section, c.Key, entryValue(c.Old), entryValue(c.New))
	}
	for _, l := range fd.Lines {
		sig.WriteString("\x00" + l)
	}
	if i, ok := groups[sig.String()]; ok {
		d.Files[i].Hosts = append(d.Files[i].Hosts, host)
		return
	}
	fd.Hosts = []string{host}
	groups[sig.String()] = len(d.Files)
	d.Files = append(d.Files, fd)
}

func entryValue(e *templates.Entry) string {
	if e == nil {
		return "\x01unset"
	}
	return e.Value
}

// WriteText prints the diff: per group of hosts and file, per section,
// "key: old (source) -> new (source)"; then the ring changes. Values are
// masked by m.
func (d *VariantDiff) WriteText(w io.Writer, m *secrets.Set) error {
	var b strings.Builder
	fmt.Fprintf(&b, "variant %q -> %q\n", d.A, d.B)
	for _, fd := range d.Files {
		fmt.Fprintf(&b, "%s: %s", strings.Join(fd.Hosts, ", "), fd.Path)
		switch fd.Only {
		case "A":
			fmt.Fprintf(&b, " (only in %q)\n", d.A)
			continue
		case "B":
			fmt.Fprintf(&b, " (only in %q)\n", d.B)
			continue
		}
		b.WriteString("\n")
		section := "\x00"
		for _, c := range fd.Changes {
			if c.Section != section {
				section = c.Section
				fmt.Fprintf(&b, "  [%s]\n", section)
			}
			fmt.Fprintf(&b, "    %s\n", c.Format(m))
		}
		for _, l := range fd.Lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	for _, s := range d.RingModes {
		b.WriteString(s + "\n")
	}
	ring := ""
	for _, p := range d.Ports {
		if p.Ring != ring {
			ring = p.Ring
			fmt.Fprintf(&b, "ring %s ports:\n", ring)
		}
		fmt.Fprintf(&b, "  %s\n", p)
	}
	_, err := io.WriteString(w, m.Mask(b.String()))
	return err
}

// WriteUnified prints a unified diff of every file that differs, masked by
// m, and of the ring layouts.
func WriteUnified(w io.Writer, a, b *Rendering, m *secrets.Set) error {
	var out strings.Builder
	seen := map[string]bool{}
	for _, c := range append(append([]*Conf(nil), a.Confs...), b.Confs...) {
		k := c.Host.Name + c.Path
		if seen[k] {
			continue
		}
		seen[k] = true
		ca, cb := a.Conf(c.Host.Name, c.Path), b.Conf(c.Host.Name, c.Path)
		na := fmt.Sprintf("%s/%s%s", variantName(a.Variant), c.Host.Name, c.Path)
		nb := fmt.Sprintf("%s/%s%s", variantName(b.Variant), c.Host.Name, c.Path)
		u := templates.Unified(na, nb, maskedConf(ca, m), maskedConf(cb, m))
		if u == "" && rawConf(ca) != rawConf(cb) {
			u = fmt.Sprintf("--- %s\n+++ %s\n# only sensitive values differ (masked)\n", na, nb)
		}
		out.WriteString(u)
	}
	for _, c := range append(append([]*GenericConf(nil), a.Generic...), b.Generic...) {
		k := c.Host.Name + c.Path
		if seen[k] {
			continue
		}
		seen[k] = true
		ca, cb := a.GenericConf(c.Host.Name, c.Path), b.GenericConf(c.Host.Name, c.Path)
		na := fmt.Sprintf("%s/%s%s", variantName(a.Variant), c.Host.Name, c.Path)
		nb := fmt.Sprintf("%s/%s%s", variantName(b.Variant), c.Host.Name, c.Path)
		u := templates.Unified(na, nb, m.Conf(genericText(ca)), m.Conf(genericText(cb)))
		if u == "" && genericText(ca) != genericText(cb) {
			u = fmt.Sprintf("--- %s\n+++ %s\n# only sensitive values differ (masked)\n", na, nb)
		}
		out.WriteString(u)
	}
	out.WriteString(templates.Unified(variantName(a.Variant)+"/"+LayoutFile, variantName(b.Variant)+"/"+LayoutFile,
		LayoutText(a.Layout), LayoutText(b.Layout)))
	_, err := io.WriteString(w, m.Mask(out.String()))
	return err
}

func maskedConf(c *Conf, m *secrets.Set) string {
	if c == nil {
		return ""
	}
	return string(c.File.Masked(m))
}

func rawConf(c *Conf) string {
	if c == nil {
		return ""
	}
	return string(c.File.Bytes())
}

func genericText(c *GenericConf) string {
	if c == nil {
		return ""
	}
	return string(c.Content)
}
