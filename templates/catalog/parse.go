package catalog

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var (
	// headerRe is a section header, commented out or not: "[DEFAULT]",
	// "# [filter:authtoken]", "#[storage-policy:1]".
	headerRe = regexp.MustCompile(`^#?\s*\[([A-Za-z0-9_:#.<> -]+)\]\s*$`)
	// optionRe is "key = value" after an optional "# ": a lower-case name
	// (paste.deploy's "set " before it), placeholders such as <account>
	// allowed; prose never starts that way.
	optionRe = regexp.MustCompile(`^(#\s*)?(set\s+)?([a-z][a-z0-9_.\-]*(?:<[a-z _]+>[a-z0-9_.\-]*)*)\s*=\s*(.*)$`)
	// placeholderRe is a sample's stand-in for a name part: <policy index>.
	placeholderRe = regexp.MustCompile(`<[^>]+>`)
	// numberedRe is a name ending in a number: container_ratelimit_10,
	// storage-policy:1.
	numberedRe = regexp.MustCompile(`^(.*[_:])\d+$`)
)

// ParseSample reads one sample conf (object-server.conf-sample or Debian's
// examples/object-server.conf) into a Conf: every section, commented out or
// not, and every option in it, commented ("# workers = auto": Swift's
// default) or not (the sample's choice).
func ParseSample(r io.Reader) (*Conf, error) {
	c := &Conf{Sections: map[string]*Section{}, Eggs: map[string]string{}}
	var sec string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := headerRe.FindStringSubmatch(line); m != nil {
			sec = placeholderRe.ReplaceAllString(strings.TrimSpace(m[1]), "*")
			c.add(sec)
			continue
		}
		if m := optionRe.FindStringSubmatch(line); m != nil && sec != "" {
			c.addOption(sec, m[3], strings.TrimSpace(m[4]), m[1] != "")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading a sample conf: %w", err)
	}
	c.generalise()
	return c, nil
}

// add returns the section named name, made when new.
func (c *Conf) add(name string) *Section {
	s := c.Sections[name]
	if s == nil {
		s = &Section{Options: map[string]Option{}}
		c.Sections[name] = s
	}
	return s
}

// addOption records key in section sec; the first mention of a key wins.
func (c *Conf) addOption(sec, key, value string, commented bool) {
	key = placeholderRe.ReplaceAllString(key, "*")
	s := c.add(sec)
	if key == "use" && strings.HasPrefix(value, "egg:swift#") {
		kind, _, _ := strings.Cut(sec, ":")
		c.Eggs[kind+":"+strings.TrimPrefix(value, "egg:swift#")] = sec
	}
	if _, seen := s.Options[key]; seen {
		return
	}
	o := Option{Type: inferType(key, value), Default: value}
	if !commented {
		o = Option{Type: inferType(key, value), Sample: value}
	}
	s.Options[key] = o
}

// generalise turns numbered names into one placeholder: options the
// sample numbers more than once (container_ratelimit_0, _10, _50 give
// container_ratelimit_*) and numbered sections (storage-policy:0 and the
// commented storage-policy:1 and :2 give storage-policy:*, with the options
// of all of them). The numbered names stay.
func (c *Conf) generalise() {
	for _, s := range c.Sections {
		for _, prefix := range numbered(s.Options, 2) {
			s.Options[prefix+"*"] = Option{Type: TypeString}
		}
	}
	for _, prefix := range numbered(c.Sections, 1) {
		pat := c.add(prefix + "*")
		for _, name := range numberedNames(c.Sections, prefix) {
			for k, o := range c.Sections[name].Options {
				if _, ok := pat.Options[k]; !ok {
					pat.Options[k] = o
				}
			}
		}
	}
}

// numberedNames returns the names in m that are prefix and a number, in
// the numbers' order, so that the lowest (storage-policy:0, the sample's
// default policy) gives a pattern its defaults whatever the map's order.
func numberedNames[V any](m map[string]V, prefix string) []string {
	var names []string
	for name := range m {
		if mm := numberedRe.FindStringSubmatch(name); mm != nil && mm[1] == prefix {
			names = append(names, name)
		}
	}
	num := func(name string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(name, prefix))
		return n
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(num(a), num(b)) })
	return names
}

// numbered returns the prefixes of m's numbered names that occur at least
// min times.
func numbered[V any](m map[string]V, min int) []string {
	count := map[string]int{}
	for name := range m {
		if mm := numberedRe.FindStringSubmatch(name); mm != nil {
			count[mm[1]]++
		}
	}
	var out []string
	for p, n := range count {
		if n >= min {
			out = append(out, p)
		}
	}
	return out
}
