package importer

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"benchbed/templates"
)

// swiftConfPath is where Swift reads swift.conf.
const swiftConfPath = "/etc/swift/swift.conf"

// Built-in swift.conf's hash path values, and the variables that replace
// them (templates/builtin/swift.conf.tmpl).
var hashKeys = map[string]string{
	"swift_hash_path_suffix": "benchbed-suffix",
	"swift_hash_path_prefix": "benchbed-prefix",
}

// readSwiftConf reads swift.conf from the first host that has it, reports
// hosts whose swift.conf differs, and takes its storage policies and hash
// path secrets.
func (d *draft) readSwiftConf() {
	var src *dHost
	var text []byte
	for _, h := range d.Hosts {
		b, ok := h.Facts.Confs[swiftConfPath]
		if !ok {
			if !slices.Equal(h.Roles, []string{"client"}) {
				d.Diags.add(Error, h.Name, "no readable %s", swiftConfPath)
			}
			continue
		}
		if src == nil {
			src, text = h, b
			continue
		}
		if !sameConf(text, b) {
			d.Diags.add(Error, h.Name, "%s differs from %s's (Swift needs it the same everywhere): the testbed describes %s's", swiftConfPath, src.Name, src.Name)
		}
	}
	if src == nil {
		return
	}
	f, err := templates.Parse(src.Name+":"+swiftConfPath, text)
	if err != nil {
		d.Diags.add(Error, src.Name, "%s", parseError(err))
		return
	}
	d.hashVars(src, f)
	d.policies(src, f)
}

// sameConf reports whether two confs hold the same sections, keys and
// values, in any order, comments aside.
func sameConf(a, b []byte) bool {
	fa, errA := templates.Parse("a", a)
	fb, errB := templates.Parse("b", b)
	if errA != nil || errB != nil {
		return bytes.Equal(a, b)
	}
	return confKey(fa) == confKey(fb)
}

// confKey is f's entries as sorted text.
func confKey(f *templates.File) string {
	var lines []string
	for _, s := range f.Sections {
		for _, e := range s.Entries {
			lines = append(lines, s.Name+"\x00"+e.Key+"\x00"+e.Value)
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// hashVars makes a sensitive variable of each hash path value that is not
// the built-in template's.
func (d *draft) hashVars(h *dHost, f *templates.File) {
	for _, k := range []string{"swift_hash_path_suffix", "swift_hash_path_prefix"} {
		if v, ok := f.Value("swift-hash", k); ok && v != hashKeys[k] {
			d.Vars = append(d.Vars, dVar{Name: k, Value: v,
				Description: "swift.conf's [swift-hash] " + k + " (from " + h.Name + ":" + swiftConfPath + ")"})
		}
	}
}

// policies takes swift.conf's [storage-policy:N] sections, unless they are
// just the built-in template's lone Policy-0.
func (d *draft) policies(h *dHost, f *templates.File) {
	var ps []dPolicy
	for _, s := range f.Sections {
		n, ok := strings.CutPrefix(s.Name, "storage-policy:")
		idx, err := strconv.Atoi(n)
		if !ok || err != nil {
			continue
		}
		p := dPolicy{Index: idx, Keys: map[string]string{}, Source: h.Name + ":" + swiftConfPath}
		for _, e := range s.Entries {
			if e.Key == "name" {
				p.Name = e.Value
			} else {
				p.Keys[e.Key] = e.Value
			}
		}
		ps = append(ps, p)
	}
	if len(ps) == 1 && ps[0].Index == 0 && ps[0].Name == "Policy-0" && onlyDefault(ps[0].Keys) {
		return
	}
	d.Policies = ps
}

// onlyDefault reports whether keys say no more than "default = yes".
func onlyDefault(keys map[string]string) bool {
	for k, v := range keys {
		if k != "default" || !truthy(v) {
			return false
		}
	}
	return true
}

// truthy is Swift's config_true_value.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes", "on", "t", "y":
		return true
	}
	return false
}
