package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// unknownKey is the finding for a key the section does not read: the
// nearest names it does read, and where else Swift reads the key (a key of
// the proxy set on the object server).
func (r SectionRef) unknownKey(key string) Finding {
	known := r.conf.allKeys()
	if !r.isDef {
		known = maps.Clone(r.sample.Options)
		if d := r.conf.Sections["DEFAULT"]; d != nil {
			maps.Copy(known, d.Options)
		}
	}
	names := slices.DeleteFunc(slices.Collect(maps.Keys(known)), func(k string) bool { return strings.Contains(k, "*") })
	msg := fmt.Sprintf("[%s] of %s.conf (%s) reads no %q", r.name, r.confNm, r.cat.Name(), key)
	if where := r.cat.readElsewhere(r.confNm, r.name, key); where != "" {
		msg += "; " + where
		if strings.Contains(where, ", ") {
			msg += " read it"
		} else {
			msg += " reads it"
		}
	}
	return Finding{Kind: UnknownKey, Message: msg, Suggest: Nearest(key, names, 3)}
}

// readElsewhere names up to three other places (conf and section) that read
// key, "" when none does.
func (c *Catalog) readElsewhere(confName, section, key string) string {
	var where []string
	for _, cn := range c.ConfNames() {
		cf := c.Confs[cn]
		for _, sn := range cf.SectionNames() {
			if _, ok := cf.Sections[sn].Options[key]; ok && !(cn == confName && sn == section) {
				where = append(where, fmt.Sprintf("%s.conf's [%s]", cn, sn))
			}
		}
	}
	if len(where) > 3 {
		where = append(where[:3], "more")
	}
	return strings.Join(where, ", ")
}

// Nearest returns up to n of names closest to s by edit distance, nearest
// first (ties sorted by name), among those close enough to be a typo of it:
// at most a third of the longer name's letters apart, and at least 1.
func Nearest(s string, names []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, name := range names {
		d := distance(strings.ToLower(s), strings.ToLower(name))
		if d > 0 && d <= max(2, max(len(s), len(name))/3) || d == 0 && name != s {
			cs = append(cs, cand{name, d})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.name)
	}
	return out
}

// distance is the Damerau-Levenshtein distance (optimal string alignment)
// of a and b: a swap of two neighbours (wokrers) counts as one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
