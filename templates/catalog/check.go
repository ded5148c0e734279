package catalog

import (
	"fmt"
	"regexp"
	"strings"

	"benchbed/templates"
)

// Kind is what Check found.
type Kind int

// The kinds of finding, from fine to wrong.
const (
	Known          Kind = iota // Swift reads it; the value has the right type
	Unchecked                  // a section the catalog cannot know (third-party middleware)
	Retired                    // Swift deprecated it or no longer reads it: a warning
	UnknownSection             // no such section in this conf
	UnknownKey                 // the section reads no such key
	BadValue                   // the value is not of the option's type
)

// Finding is what Check says of one section or setting.
type Finding struct {
	Kind    Kind
	Message string   // a sentence for the user, "" when Known
	Suggest []string // the nearest known names, for "did you mean"
	Option  Option   // the option, when Known or BadValue
}

// Error reports whether f must stop a testbed.
func (f Finding) Error() bool { return f.Kind >= UnknownSection }

// SectionRef is a section of a conf, resolved by Section.
type SectionRef struct {
	conf    *Conf
	cat     *Catalog
	confNm  string
	name    string   // the section's name in the testbed
	sample  *Section // nil for DEFAULT (every key) or an unchecked section
	isDef   bool
	checked bool
}

// Section resolves section of conf confName. use is the section's
// paste.deploy entry point when the testbed or template gives one
// ("egg:swift#memcache"), so that a renamed middleware section is checked
// as the middleware it loads.
func (c *Catalog) Section(confName, section, use string) (SectionRef, Finding) {
	cf := c.Conf(confName)
	ref := SectionRef{conf: cf, cat: c, confNm: confName, name: section, checked: true}
	switch {
	case cf == nil:
		ref.checked = false
		return ref, Finding{Kind: Unchecked, Message: fmt.Sprintf("%s's catalog has no %s.conf", c.Name(), confName)}
	case section == "DEFAULT":
		ref.isDef = true
		return ref, Finding{Kind: Known}
	}
	if use != "" && !strings.HasPrefix(use, "egg:swift#") {
		ref.checked = false
		return ref, Finding{Kind: Unchecked, Message: fmt.Sprintf("[%s] loads %s, not one of Swift's own: its keys are not checked", section, use)}
	}
	if s := cf.bySection(section, use); s != nil {
		ref.sample = s
		return ref, Finding{Kind: Known}
	}
	return ref, c.unknownSection(cf, confName, section, use)
}

// bySection finds the sample section for section: by its egg when use or
// the name says one (filter:cache and filter:memcache both load memcache),
// else by name.
func (cf *Conf) bySection(section, use string) *Section {
	kind, name, _ := strings.Cut(section, ":")
	if use != "" {
		if s, ok := cf.Eggs[kind+":"+strings.TrimPrefix(use, "egg:swift#")]; ok {
			return cf.Sections[s]
		}
		return nil
	}
	if s := cf.section(section); s != nil {
		return s
	}
	if s, ok := cf.Eggs[kind+":"+name]; ok {
		return cf.Sections[s]
	}
	return nil
}

// unknownSection is the finding for a section conf has not.
func (c *Catalog) unknownSection(cf *Conf, confName, section, use string) Finding {
	names := cf.SectionNames()
	if kind, _, ok := strings.Cut(section, ":"); ok && (kind == "filter" || kind == "app") {
		for egg := range cf.Eggs {
			names = append(names, egg)
		}
	}
	what := fmt.Sprintf("%s.conf of %s has no section [%s]", confName, c.Name(), section)
	if use != "" {
		what = fmt.Sprintf("%s.conf of %s knows no middleware %s ([%s])", confName, c.Name(), use, section)
	}
	return Finding{Kind: UnknownSection, Message: what, Suggest: Nearest(section, names, 3)}
}

// Check checks key = value in the section: a retired option is a warning,
// an unknown key or a value of the wrong type an error.
func (r SectionRef) Check(key, value string) Finding {
	key = strings.TrimPrefix(key, "set ")
	if msg := templates.RetiredMessage(r.name, key, r.cat.release()); msg != "" {
		return Finding{Kind: Retired, Message: fmt.Sprintf("%s in [%s]: %s", key, r.name, msg)}
	}
	if !r.checked || key == "use" || strings.HasPrefix(key, "paste.") {
		return Finding{Kind: Known}
	}
	o, ok := r.option(key)
	if !ok {
		return r.unknownKey(key)
	}
	if why := o.Type.CheckValue(value); why != "" {
		return Finding{Kind: BadValue, Option: o, Message: fmt.Sprintf("%s: %s; %s reads %s here%s", key, why, r.cat.Name(), o.Type.Noun(), defaultNote(o))}
	}
	return Finding{Kind: Known, Option: o}
}

// Option returns what the catalog knows of key in the section (its own
// options, then DEFAULT's), false when it knows nothing.
func (r SectionRef) Option(key string) (Option, bool) {
	if !r.checked {
		return Option{}, false
	}
	return r.option(strings.TrimPrefix(key, "set "))
}

// option finds key in the section: its own options, then (DEFAULT's
// values reach every section) the conf's DEFAULT ones; DEFAULT itself
// may set any key of any section.
func (r SectionRef) option(key string) (Option, bool) {
	if r.isDef {
		return lookup(r.conf.allKeys(), key)
	}
	if o, ok := lookup(r.sample.Options, key); ok {
		return o, true
	}
	if d := r.conf.Sections["DEFAULT"]; d != nil {
		return lookup(d.Options, key)
	}
	return Option{}, false
}

// lookup finds key among opts, placeholders (user_*_*) included.
func lookup(opts map[string]Option, key string) (Option, bool) {
	if o, ok := opts[key]; ok {
		return o, true
	}
	for pat, o := range opts {
		if strings.Contains(pat, "*") && matchKey(pat, key) {
			return o, true
		}
	}
	return Option{}, false
}

// matchKey reports whether key matches pat, each "*" of which stands for
// one or more characters.
func matchKey(pat, key string) bool {
	re := "^" + strings.ReplaceAll(regexp.QuoteMeta(pat), `\*`, ".+") + "$"
	ok, _ := regexp.MatchString(re, key)
	return ok
}

// defaultNote is ", default X" when the sample documents one.
func defaultNote(o Option) string {
	if !o.HasDefault() {
		return ""
	}
	return fmt.Sprintf(" (Swift's default: %s)", o.Default)
}

// release is the catalog's Swift version for the retired options' table,
// "" (a current Swift) for the union of several.
func (c *Catalog) release() string {
	if strings.HasPrefix(c.Version, anyPrefix) {
		return ""
	}
	return c.Version
}

// DefaultOf is Swift's documented default of key in section of conf (the
// section's paste.deploy entry point use, "" for none), false when the
// catalog documents none.
func (c *Catalog) DefaultOf(conf, section, use, key string) (string, bool) {
	ref, f := c.Section(conf, section, use)
	if f.Error() {
		return "", false
	}
	o, ok := ref.Option(key)
	if !ok || !o.HasDefault() {
		return "", false
	}
	return o.Default, true
}
