package optcheck

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
	"benchbed/templates"
	"benchbed/templates/catalog"
)

// addFunc adds one diagnostic.
type addFunc func(sev hcl.DiagnosticSeverity, rng hcl.Range, summary, format string, a ...any)

// Check checks every Swift service's settings, every variant's set blocks
// and the settings of generic services that name a catalog conf against
// Swift's option catalog (package templates/catalog): the testbed's
// swift_version, or any version benchbed carries. It fills
// tb.SettingsCheck and returns the errors and warnings.
func Check(tb *plan.Testbed) hcl.Diagnostics {
	var diags hcl.Diagnostics
	add := func(sev hcl.DiagnosticSeverity, rng hcl.Range, summary, format string, a ...any) {
		diags = append(diags, lang.Diagf(sev, rng.Ptr(), summary, format, a...))
	}
	check(tb, add)
	return diags
}

// CheckAgainst checks the settings of the Swift services that run on a
// host with one of roles (every variant's set blocks for them included)
// against cat: a host's own Swift, read by preflight. It returns only
// the errors; tb is not changed.
func CheckAgainst(tb *plan.Testbed, cat *catalog.Catalog, roles []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	sc := &settingsChecker{tb: tb, cat: cat, diags: map[string]*settingDiag{}, used: map[string]bool{}, only: roles, report: &plan.SettingsCheck{}}
	sc.run()
	sc.emit(func(sev hcl.DiagnosticSeverity, rng hcl.Range, summary, format string, a ...any) {
		if sev == hcl.DiagError {
			diags = append(diags, lang.Diagf(sev, rng.Ptr(), summary, format, a...))
		}
	})
	return diags
}

// check runs Check's checks, adding what they find.
func check(tb *plan.Testbed, add addFunc) {
	cat, err := catalogOf(tb)
	if err != nil {
		add(hcl.DiagError, tb.SwiftVersionRange, "Unknown Swift version", "%s", err)
		return
	}
	tb.SettingsCheck = plan.SettingsCheck{Catalog: cat.Name()}
	sc := &settingsChecker{tb: tb, cat: cat, diags: map[string]*settingDiag{}, used: map[string]bool{}, report: &tb.SettingsCheck}
	sc.run()
	for _, g := range tb.Generics {
		if g.Catalog != "" && cat.Conf(g.Catalog) == nil {
			add(hcl.DiagError, g.DefRange, "Unknown catalog conf",
				"service %q names catalog %q; %s's catalog has %s", g.Name, g.Catalog, cat.Name(), strings.Join(cat.ConfNames(), ", "))
		}
	}
	for _, s := range tb.Services {
		sc.warnUnused(s.Unchecked, s.DefRange, "service "+s.Name)
	}
	for _, v := range tb.Variants {
		sc.warnUnused(v.Unchecked, v.DefRange, "variant "+v.Name)
	}
	sc.emit(add)
}

// run checks every service's settings (those of the roles in sc.only,
// when set), generic services that name a catalog conf, and every
// variant's set blocks.
func (sc *settingsChecker) run() {
	tb := sc.tb
	for _, s := range tb.Services {
		if sc.runs(s.Role) {
			sc.check(serviceTarget(s), s.Settings, s.Unchecked, "service "+s.Name)
		}
	}
	for _, g := range tb.Generics {
		if g.Catalog != "" && sc.runs(g.Role) {
			sc.check(sc.genericTarget(g), g.Settings, g.Unchecked, "service "+g.Name)
		}
	}
	for _, v := range tb.Variants {
		for _, name := range sortedKeys(v.Set) {
			t, role, unchecked := sc.variantTarget(name)
			if sc.runs(role) {
				sc.check(t, v.Set[name], append(slices.Clone(unchecked), v.Unchecked...), "variant "+v.Name)
			}
		}
	}
}

// runs reports whether the services of role are checked.
func (sc *settingsChecker) runs(role string) bool {
	return sc.only == nil || slices.Contains(sc.only, role)
}

// CatalogOf returns the catalog of tb's swift_version, or the union of
// all carried, nil when it cannot be loaded (validation says why).
func CatalogOf(tb *plan.Testbed) *catalog.Catalog {
	c, _ := catalogOf(tb)
	return c
}

// catalogOf loads the catalog of tb's swift_version, or the union of all.
func catalogOf(tb *plan.Testbed) (*catalog.Catalog, error) {
	if tb.SwiftVersion == "" {
		return catalog.Any()
	}
	return catalog.Load(tb.SwiftVersion)
}

// target is the conf a service's settings go to.
type target struct {
	service string            // the service's name
	conf    string            // the catalog's conf name, "" when none fits
	uses    map[string]string // the template's sections' use lines
}

// ConfOf is the catalog conf a Swift service's settings go to
// (serviceTarget), "" when none fits.
func ConfOf(s *plan.Service) string { return serviceTarget(s).conf }

// serviceTarget finds the catalog conf of a Swift service: its built-in
// template's, else its path's file name (object-server.conf), else its own
// name, else its path's directory (object-server/1.conf).
func serviceTarget(s *plan.Service) target {
	t := target{service: s.Name}
	if text, ok := templates.BuiltinText(s.Template); ok {
		t.conf, t.uses = s.Template, catalog.Uses(text)
		return t
	}
	for _, c := range []string{strings.TrimSuffix(path.Base(s.Path), ".conf"), s.Name, path.Base(path.Dir(s.Path))} {
		if knownConf(c) {
			t.conf = c
			break
		}
	}
	return t
}

// knownConf reports whether some carried catalog has conf name.
func knownConf(name string) bool {
	c, err := catalog.Any()
	return err == nil && c.Conf(name) != nil
}

// genericTarget is the catalog conf a generic service names, none when
// the catalog lacks it (check says so).
func (sc *settingsChecker) genericTarget(g *plan.Generic) target {
	if sc.cat.Conf(g.Catalog) == nil {
		return target{service: g.Name}
	}
	return target{service: g.Name, conf: g.Catalog}
}

// variantTarget is the conf a variant's set block for service name goes
// to, the service's role and its unchecked list.
func (sc *settingsChecker) variantTarget(name string) (target, string, []string) {
	if s := sc.tb.Service(name); s != nil {
		return serviceTarget(s), s.Role, s.Unchecked
	}
	for _, g := range sc.tb.Generics {
		if g.Name == name && g.Catalog != "" {
			return sc.genericTarget(g), g.Role, g.Unchecked
		}
	}
	return target{service: name}, "", nil
}

// sortedKeys returns m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// describeSetting is "[section] key = value" with a sensitive value masked.
func describeSetting(sec, key string, s plan.Setting) string {
	v := s.Value
	if s.Sensitive {
		v = "(sensitive)"
	}
	return fmt.Sprintf("[%s] %s = %s", sec, key, v)
}
