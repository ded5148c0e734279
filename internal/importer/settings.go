package importer

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"benchbed/plan/render"
	"benchbed/templates"
	"benchbed/templates/catalog"
	"benchbed/templates/secrets"
)

// setSettings gives every service the settings that make the built-in
// template, as r (the first pass's rendering) renders it for each host,
// the conf that host runs: taken from the service's first host, and
// compared with every other's.
func (d *draft) setSettings(r *render.Rendering, cat *catalog.Catalog) {
	for _, s := range d.Services {
		var first []dSection
		for _, host := range s.Hosts {
			secs, ok := d.hostSettings(r, cat, s, d.host(host))
			if !ok {
				continue
			}
			if s.From == "" {
				s.From, first = host, secs
				continue
			}
			if diff := sectionsDiff(first, secs); diff != "" {
				d.Diags.add(Error, host, "%s differs from %s's: %s (the testbed describes %s's; a service has one conf for all its hosts)", s.Path, s.From, diff, s.From)
			}
		}
		s.Settings = first
	}
	d.secretVars()
}

// host returns the host named name.
func (d *draft) host(name string) *dHost {
	for _, h := range d.Hosts {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// hostSettings compares host h's conf of service s with its rendering.
func (d *draft) hostSettings(r *render.Rendering, cat *catalog.Catalog, s *dService, h *dHost) ([]dSection, bool) {
	text, ok := h.Facts.Confs[s.Path]
	if !ok {
		return nil, false
	}
	live, err := templates.Parse(h.Name+":"+s.Path, text)
	if err != nil {
		d.Diags.add(Error, h.Name, "%s", parseError(err))
		return nil, false
	}
	c := r.Conf(h.Name, s.Path)
	if c == nil {
		d.Diags.add(Error, h.Name, "%s: the first pass rendered no %s", s.Name, s.Path)
		return nil, false
	}
	return d.confSettings(cat, s.Name, h, live, c.File), true
}

// confSettings are the keys that turn rendered into live: live's keys the
// rendering lacks (unless Swift's default) or sets otherwise, and the
// rendering's keys live leaves unset, at Swift's default.
func (d *draft) confSettings(cat *catalog.Catalog, conf string, h *dHost, live, rendered *templates.File) []dSection {
	var out []dSection
	add := func(sec string, k dKey) {
		if i := slices.IndexFunc(out, func(s dSection) bool { return s.Name == sec }); i >= 0 {
			out[i].Keys = append(out[i].Keys, k)
			return
		}
		out = append(out, dSection{Name: sec, Keys: []dKey{k}})
	}
	d.liveKeys(cat, conf, h, live, rendered, add)
	d.templateKeys(cat, conf, h, live, rendered, add)
	return out
}

// liveKeys adds live's keys that rendered lacks (unless at Swift's
// default) or sets otherwise.
func (d *draft) liveKeys(cat *catalog.Catalog, conf string, h *dHost, live, rendered *templates.File, add func(string, dKey)) {
	for _, sec := range live.Sections {
		use := sectionUse(live, rendered, sec.Name)
		for _, e := range sec.Entries {
			rv, inTemplate := rendered.Value(sec.Name, e.Key)
			if inTemplate && rv == e.Value {
				continue
			}
			if sec.Name == "DEFAULT" && e.Key == "bind_ip" {
				d.Diags.add(Warning, h.Name, "%s: bind_ip = %s: benchbed renders the host's address (%s) there", live.Name, e.Value, h.Address)
				continue
			}
			if def, ok := defaultOf(cat, conf, sec.Name, use, e.Key); !inTemplate && ok && def == e.Value {
				continue
			}
			add(sec.Name, dKey{Key: e.Key, Value: e.Value})
		}
	}
}

// templateKeys adds, at Swift's default, the keys rendered sets and live
// leaves unset, but for a middleware live's pipeline does not load and the
// template's alias of a key live sets.
func (d *draft) templateKeys(cat *catalog.Catalog, conf string, h *dHost, live, rendered *templates.File, add func(string, dKey)) {
	for _, sec := range rendered.Sections {
		if live.Section(sec.Name) == nil && !inPipeline(live, sec.Name) && strings.HasPrefix(sec.Name, "filter:") {
			continue
		}
		use := sectionUse(live, rendered, sec.Name)
		for _, e := range sec.Entries {
			if _, ok := live.Value(sec.Name, e.Key); ok || e.Key == "use" || aliasSet(live, sec.Name, e.Key) {
				continue
			}
			def, ok := defaultOf(cat, conf, sec.Name, use, e.Key)
			switch {
			case !ok:
				d.Diags.add(Error, h.Name, "%s: [%s] %s is unset there, the built-in template sets it and Swift's catalog gives no default to write instead", live.Name, sec.Name, e.Key)
			case def != e.Value:
				add(sec.Name, dKey{Key: e.Key, Value: def, Comment: "Swift's default (unset on the host; the built-in template has " + maskIf(sec.Name, e.Key, e.Value) + ")"})
			}
		}
	}
}

// sectionUse is a section's paste.deploy entry point, from either file.
func sectionUse(a, b *templates.File, sec string) string {
	if v, ok := a.Value(sec, "use"); ok {
		return v
	}
	v, _ := b.Value(sec, "use")
	return v
}

// inPipeline reports whether live's pipeline loads filter section sec.
func inPipeline(live *templates.File, sec string) bool {
	return slices.Contains(live.Pipeline(), strings.TrimPrefix(sec, "filter:"))
}

// defaultOf is Swift's default of a key (false without a catalog): the
// catalog's, else storage_policy.py's for a policy's default and
// deprecated, which its sample conf does not document.
func defaultOf(cat *catalog.Catalog, conf, sec, use, key string) (string, bool) {
	if conf == "swift" && strings.HasPrefix(sec, "storage-policy:") && (key == "default" || key == "deprecated") {
		return "no", true
	}
	if cat == nil {
		return "", false
	}
	return cat.DefaultOf(conf, sec, use, key)
}

// maskIf is a value for a message: masked when its key names a secret.
func maskIf(sec, key, v string) string {
	if secrets.Key(sec, key) {
		return secrets.Masked
	}
	return fmt.Sprintf("%q", v)
}

// sectionsDiff says how b's settings differ from a's ("" = the same),
// secrets masked.
func sectionsDiff(a, b []dSection) string {
	flat := func(ss []dSection) map[string]string {
		m := map[string]string{}
		for _, s := range ss {
			for _, k := range s.Keys {
				m["["+s.Name+"] "+k.Key] = k.Value
			}
		}
		return m
	}
	fa, fb := flat(a), flat(b)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(fa)) {
		if v, ok := fb[k]; !ok || v != fa[k] {
			out = append(out, fmt.Sprintf("%s %s there, %s here", k, masked(k, fa[k], true), masked(k, v, ok)))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(fb)) {
		if _, ok := fa[k]; !ok {
			out = append(out, fmt.Sprintf("%s unset there, %s here", k, masked(k, fb[k], true)))
		}
	}
	return strings.Join(out, "; ")
}

// masked is the value of "[section] key" for a message: "unset" when
// absent, masked when the key names a secret.
func masked(sectionKey, v string, ok bool) string {
	if !ok {
		return "unset"
	}
	sec, key, _ := strings.Cut(strings.TrimPrefix(sectionKey, "["), "] ")
	return maskIf(sec, key, v)
}

// secretVars moves every secret setting's value into a sensitive
// variable: tempauth's user_<account>_<user> keeps its groups in the
// setting and only the key goes into the variable.
func (d *draft) secretVars() {
	for _, s := range d.Services {
		for i := range s.Settings {
			sec := &s.Settings[i]
			for j := range sec.Keys {
				k := &sec.Keys[j]
				if !secrets.Key(sec.Name, k.Key) {
					continue
				}
				value := k.Value
				name := varName(sec.Name, k.Key)
				if strings.HasPrefix(sec.Name, "filter:") && strings.HasPrefix(k.Key, "user_") {
					key, rest, _ := strings.Cut(k.Value, " ")
					value, k.Rest = key, " "+rest
					if rest == "" {
						k.Rest = ""
					}
					name = "tempauth_" + strings.TrimPrefix(k.Key, "user_") + "_key"
				}
				k.Var, k.Value = name, ""
				d.addVar(dVar{Name: name, Value: value,
					Description: fmt.Sprintf("[%s] %s of %s:%s", sec.Name, k.Key, s.From, s.Path)})
			}
		}
	}
}

// addVar adds v unless a variable of its name is there.
func (d *draft) addVar(v dVar) {
	if slices.ContainsFunc(d.Vars, func(x dVar) bool { return x.Name == v.Name }) {
		return
	}
	d.Vars = append(d.Vars, v)
}

// notIdent matches what a variable name cannot hold.
var notIdent = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// varName is the variable of a secret key: section_key as an identifier.
func varName(sec, key string) string {
	n := strings.Trim(notIdent.ReplaceAllString(strings.TrimPrefix(sec, "filter:")+"_"+key, "_"), "_")
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "secret_" + n
	}
	return strings.ToLower(n)
}

// aliasSet reports whether live sets an alias of key in sec
// (templates.Aliases): a setting of it drops the template's key.
func aliasSet(live *templates.File, sec, key string) bool {
	for _, a := range templates.Aliases {
		for i, k := range a {
			if k != key {
				continue
			}
			if _, ok := live.Value(sec, a[1-i]); ok {
				return true
			}
		}
	}
	return false
}
