package importer

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/templates"
	"benchbed/templates/catalog"
)

// checkRendering compares the written testbed's baseline rendering with
// what the hosts run: every conf setting by setting (Swift's default
// standing for a key one side leaves unset) and byte by byte, every
// ring's devices one by one. It returns how many confs were byte-identical.
func (d *draft) checkRendering(tb *plan.Testbed, r *render.Rendering, cat *catalog.Catalog) (identical int) {
	for _, c := range r.Confs {
		h := d.host(c.Host.Name)
		text, ok := h.Facts.Confs[c.Path]
		if !ok {
			d.Diags.add(Error, h.Name, "the baseline renders %s, which the host does not have", c.Path)
			continue
		}
		live, err := templates.Parse(h.Name+":"+c.Path, text)
		if err != nil {
			continue // reported by the settings
		}
		conf := "swift"
		if c.Service != nil {
			conf = c.Service.Name
		}
		if diffs := SettingDiffs(cat, conf, live, c.File); len(diffs) > 0 {
			d.Diags.add(Error, h.Name, "the baseline renders %s otherwise than the host has it: %s", c.Path, strings.Join(diffs, "; "))
		} else if string(c.File.Bytes()) == string(text) {
			identical++
		}
	}
	d.checkLayout(r.Layout)
	return identical
}

// SettingDiffs lists the settings of conf (a catalog conf name) that
// differ between live and rendered, "[section] key: live -> rendered",
// secrets masked: a key one side leaves unset stands for Swift's default,
// and a middleware section only the rendering has, which live's pipeline
// does not load, is left out.
func SettingDiffs(cat *catalog.Catalog, conf string, live, rendered *templates.File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range []*templates.File{live, rendered} {
		for _, sec := range f.Sections {
			if live.Section(sec.Name) == nil && strings.HasPrefix(sec.Name, "filter:") && !inPipeline(live, sec.Name) {
				continue
			}
			use := sectionUse(live, rendered, sec.Name)
			for _, e := range sec.Entries {
				id := sec.Name + "\x00" + e.Key
				if seen[id] {
					continue
				}
				seen[id] = true
				lv, lok := effective(cat, conf, live, sec.Name, use, e.Key)
				rv, rok := effective(cat, conf, rendered, sec.Name, use, e.Key)
				if lv != rv || lok != rok {
					out = append(out, fmt.Sprintf("[%s] %s: %s -> %s", sec.Name, e.Key, masked2(sec.Name, e.Key, lv, lok), masked2(sec.Name, e.Key, rv, rok)))
				}
			}
		}
	}
	return out
}

// effective is a key's value in f, else Swift's default (false: neither).
func effective(cat *catalog.Catalog, conf string, f *templates.File, sec, use, key string) (string, bool) {
	if v, ok := f.Value(sec, key); ok {
		return v, true
	}
	return defaultOf(cat, conf, sec, use, key)
}

func masked2(sec, key, v string, ok bool) string {
	if !ok {
		return "unset"
	}
	return maskIf(sec, key, v)
}

// checkLayout compares the baseline's ring layout with the live rings,
// device by device: address, name, port, weight.
func (d *draft) checkLayout(l *plan.Layout) {
	for _, rl := range l.Rings {
		var live *dRing
		for _, r := range d.Rings {
			if r.Name == rl.Ring.Name {
				live = r
			}
		}
		if live == nil {
			continue
		}
		want := map[string]Dev{}
		for _, x := range live.Devs {
			want[x.IP+"/"+x.Device] = x
		}
		got := map[string]bool{}
		for _, x := range rl.Devices {
			key := x.IP + "/" + x.Name
			got[key] = true
			w, ok := want[key]
			switch {
			case !ok:
				d.Diags.add(Error, x.Host, "ring %s: the testbed has device %s, the live ring does not", rl.Ring.Name, x)
			case w.Port != x.Port || w.Weight != x.Weight:
				d.Diags.add(Error, x.Host, "ring %s: device %s: the live ring has port %d weight %g, the testbed port %d weight %g", rl.Ring.Name, key, w.Port, w.Weight, x.Port, x.Weight)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if !got[k] {
				d.Diags.add(Error, "", "ring %s: the live ring has device %s, the testbed does not", rl.Ring.Name, k)
			}
		}
	}
}
