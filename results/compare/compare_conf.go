package compare

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"benchbed/results/rundir"
	"benchbed/templates"
	"benchbed/templates/catalog"
)

// ConfDiff is what differs between the configurations two cells recorded.
type ConfDiff struct {
	Files []ConfFile `json:"files,omitempty"`
	Rings []string   `json:"rings,omitempty"` // ring mode and port changes, one line each
	// Missing says what one side did not record (no confs, no ring ports).
	Missing []string `json:"missing,omitempty"`
}

// Empty reports whether the two configurations are the same.
func (d *ConfDiff) Empty() bool {
	return len(d.Files) == 0 && len(d.Rings) == 0 && len(d.Missing) == 0
}

// ConfFile is one file's changes on a group of hosts with the same changes.
type ConfFile struct {
	Hosts   []string     `json:"hosts"`
	Path    string       `json:"path"`           // the absolute path on the hosts
	Only    string       `json:"only,omitempty"` // "A" or "B" when only that side has the file
	Changes []ConfChange `json:"changes,omitempty"`
	// Lines are the changed lines ("-old", "+new") of a file that is not INI.
	Lines []string `json:"lines,omitempty"`
}

// ConfChange is one key's change. Old is absent for an added key, New for
// a removed one.
type ConfChange struct {
	Section string  `json:"section"`
	Key     string  `json:"key"`
	Old     *string `json:"old,omitempty"`
	New     *string `json:"new,omitempty"`
	Text    string  `json:"-"` // "key: old -> new", as `benchbed diff` prints it
}

// pairConfDiff compares the confs of the first cell of each side (repeats
// of one variant share their confs).
func pairConfDiff(a, b pool) *ConfDiff {
	da, db := a.run.CellDir(a.cells[0]), b.run.CellDir(b.cells[0])
	if da == "" || db == "" {
		return &ConfDiff{Missing: []string{"a cell has no id (a summary older than ids): no configuration to compare"}}
	}
	return DiffCellConfs(da, db)
}

// DiffCellConfs compares the confs and ring ports recorded in two cell
// directories. What cannot be read is named in Missing, never fatal.
func DiffCellConfs(dirA, dirB string) *ConfDiff {
	d := &ConfDiff{}
	fa, errA := rundir.ReadConfs(dirA)
	fb, errB := rundir.ReadConfs(dirB)
	if d.readBoth(errA, errB) {
		d.diffFiles(fa, fb)
	}
	ra, errA := rundir.ReadRingLayout(dirA)
	rb, errB := rundir.ReadRingLayout(dirB)
	if d.readBoth(errA, errB) {
		d.Rings = DiffRingLayouts(ra, rb)
	}
	return d
}

// readBoth names in Missing what a side could not read, and reports
// whether both sides were read.
func (d *ConfDiff) readBoth(errA, errB error) bool {
	for _, err := range []error{errA, errB} {
		if err != nil {
			d.Missing = append(d.Missing, err.Error())
		}
	}
	return errA == nil && errB == nil
}

// diffFiles adds the changes of every file, grouping the hosts whose
// changes to a file are the same.
func (d *ConfDiff) diffFiles(a, b map[rundir.Conf][]byte) {
	keys := slices.SortedFunc(maps.Keys(confUnion(a, b)), func(x, y rundir.Conf) int {
		return strings.Compare(x.Path+"\x00"+x.Host, y.Path+"\x00"+y.Host)
	})
	groups := map[string]int{}
	for _, k := range keys {
		f, ok := diffFile(k, a, b)
		if !ok {
			continue
		}
		sig := confSignature(f)
		if i, seen := groups[sig]; seen {
			d.Files[i].Hosts = append(d.Files[i].Hosts, k.Host)
			continue
		}
		groups[sig] = len(d.Files)
		d.Files = append(d.Files, f)
	}
}

func confUnion(a, b map[rundir.Conf][]byte) map[rundir.Conf]bool {
	u := map[rundir.Conf]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// diffFile compares one file; ok is false when it is the same on both sides.
func diffFile(k rundir.Conf, a, b map[rundir.Conf][]byte) (ConfFile, bool) {
	f := ConfFile{Hosts: []string{k.Host}, Path: k.Path}
	ba, inA := a[k]
	bb, inB := b[k]
	switch {
	case !inB:
		f.Only = "A"
		return f, true
	case !inA:
		f.Only = "B"
		return f, true
	case string(ba) == string(bb):
		return f, false
	}
	changes, err := diffINI(k.Path, ba, bb)
	if err != nil {
		f.Lines = changedLines(templates.Unified("A", "B", string(ba), string(bb)))
		return f, true
	}
	f.Changes = changes
	return f, len(changes) > 0
}

// diffINI compares two INI files with templates' parser and diff (those
// of `benchbed diff`), sources left out: only the values matter here.
func diffINI(name string, a, b []byte) ([]ConfChange, error) {
	fa, err := templates.Parse(name, a)
	if err != nil {
		return nil, err
	}
	fb, err := templates.Parse(name, b)
	if err != nil {
		return nil, err
	}
	var out []ConfChange
	changes := templates.Diff(withoutSources(fa), withoutSources(fb))
	swiftDefaults(name, string(a)+"\n"+string(b), changes)
	for _, c := range changes {
		out = append(out, ConfChange{Section: c.Section, Key: c.Key, Old: confValue(c.Old), New: confValue(c.New), Text: c.Format(nil)})
	}
	return out, nil
}

func withoutSources(f *templates.File) *templates.File {
	for _, s := range f.Sections {
		for _, e := range s.Entries {
			e.Source = templates.Source{}
		}
	}
	return f
}

func confValue(e *templates.Entry) *string {
	if e == nil {
		return nil
	}
	v := e.Value
	return &v
}

func confSignature(f ConfFile) string {
	var b strings.Builder
	b.WriteString(f.Path + "\x00" + f.Only)
	for _, c := range f.Changes {
		fmt.Fprintf(&b, "\x00%s\x00%s", c.Section, c.Text)
	}
	for _, l := range f.Lines {
		b.WriteString("\x00" + l)
	}
	return b.String()
}

// changedLines keeps the "-" and "+" lines of a unified diff, after its
// two header lines.
func changedLines(u string) []string {
	var out []string
	lines := strings.Split(u, "\n")
	if len(lines) >= 2 && strings.HasPrefix(lines[0], "--- ") && strings.HasPrefix(lines[1], "+++ ") {
		lines = lines[2:]
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") {
			out = append(out, l)
		}
	}
	return out
}

// swiftDefaults fills each change's Default where one side leaves the key
// unset and Swift's option catalog (every carried release's: a run keeps
// no version of its own before catalog.json) documents one for the conf at
// path (/etc/swift/object-server.conf), whose text gives the sections'
// entry points.
func swiftDefaults(confPath, text string, changes []templates.Change) {
	cat, err := catalog.Any()
	conf := strings.TrimSuffix(path.Base(confPath), ".conf")
	if err != nil || cat.Conf(conf) == nil {
		return
	}
	uses := catalog.Uses(text)
	for i, ch := range changes {
		if ch.Old == nil || ch.New == nil {
			changes[i].Default, _ = cat.DefaultOf(conf, ch.Section, uses[ch.Section], ch.Key)
		}
	}
}
