package decode

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// bidi are the Unicode bidirectional controls, which make a name read
// otherwise than it is (a conf that looks right and is not).
const bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

// nameProblem says why s cannot be a section or key name of an INI file,
// or "" when it can: not empty, no leading or trailing space, no NUL,
// newline, other control or bidi character; no ']' in a section, no '='
// or ':' (both separate key from value) in a key, which must not start as
// a comment or a section does.
func nameProblem(s string, section bool) string {
	switch {
	case s == "":
		return "it is empty"
	case strings.TrimSpace(s) != s:
		return "it starts or ends with a space"
	}
	for _, r := range s {
		switch {
		case r == 0:
			return "it holds a NUL"
		case r == '\n' || r == '\r':
			return "it holds a line break"
		case unicode.IsControl(r):
			return fmt.Sprintf("it holds the control character %U", r)
		case strings.ContainsRune(bidi, r):
			return fmt.Sprintf("it holds the bidirectional control %U", r)
		case section && (r == ']' || r == '['):
			return fmt.Sprintf("a section name holds no %q", r)
		case !section && (r == '=' || r == ':'):
			return fmt.Sprintf("a key holds no %q (it separates key from value)", r)
		}
	}
	if !section && strings.ContainsAny(s[:1], "#;[") {
		return fmt.Sprintf("a key does not start with %q (a comment or a section would)", s[:1])
	}
	return ""
}

// checkSectionName reports a section name no INI file can hold.
func (d *decoder) checkSectionName(name string, rng hcl.Range) bool {
	if p := nameProblem(name, true); p != "" {
		d.Errorf(rng.Ptr(), "Invalid section name", "section %q cannot be written to a conf: %s", name, p)
		return false
	}
	return true
}

// checkSettingNames drops from s, reporting them, the keys no INI file can
// hold (nameProblem).
func (d *decoder) checkSettingNames(s plan.Settings) {
	for sec, keys := range s {
		for k, v := range keys {
			if p := nameProblem(k, false); p != "" {
				d.Errorf(v.Range.Ptr(), "Invalid setting name", "key %q of section %q cannot be written to a conf: %s", k, sec, p)
				delete(keys, k)
			}
		}
	}
}

// checkConfPath checks a service's path: absolute, clean, not "/", no
// control character.
func (d *decoder) checkConfPath(a *hcl.Attribute, service, p string) bool {
	problem := ""
	switch {
	case p == "":
		return true
	case !path.IsAbs(p):
		problem = "path must be absolute"
	case p == "/" || strings.HasSuffix(p, "/"):
		problem = "path must name a file, not a directory"
	case path.Clean(p) != p:
		problem = fmt.Sprintf("path must be clean (%q)", path.Clean(p))
	case strings.IndexFunc(p, func(r rune) bool { return unicode.IsControl(r) || strings.ContainsRune(bidi, r) }) >= 0:
		problem = "path must hold no control character"
	}
	if problem != "" {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid path", "service %q: %s, got %q", service, problem, p)
		return false
	}
	return true
}

// validatePaths refuses two services that write one conf path on one
// host. Hosts with the same roles run the same services: each set of
// roles is checked once, on its first host.
func validatePaths(tb *plan.Testbed, add addFunc) {
	type writer struct {
		service string
		rng     hcl.Range
	}
	done := map[string]bool{}
	for _, h := range tb.Hosts {
		roles := append([]string(nil), h.Roles...)
		sort.Strings(roles)
		key := strings.Join(roles, "\x00")
		if done[key] {
			continue
		}
		done[key] = true
		seen := map[string]writer{}
		claim := func(name, p string, rng hcl.Range) {
			if p == "" {
				return
			}
			if w, dup := seen[p]; dup {
				add(hcl.DiagError, rng, "Two services write one conf",
					"services %q (%s) and %q both write %s on host %q", w.service, w.rng, name, p, h.Name)
				return
			}
			seen[p] = writer{name, rng}
		}
		for _, s := range tb.Services {
			if h.HasRole(s.Role) {
				claim(s.Name, s.Path, s.DefRange)
			}
		}
		for _, g := range tb.Generics {
			if h.HasRole(g.Role) {
				claim(g.Name, g.Path, g.DefRange)
			}
		}
	}
}
