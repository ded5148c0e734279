package optcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/templates/catalog"
	"benchbed/templates/secrets"
)

// settingsChecker checks settings against one catalog and collects its
// diagnostics, so that a mistake a for_each repeats in every instance
// (one range, one message) is said once with the instances named.
type settingsChecker struct {
	tb    *plan.Testbed
	cat   *catalog.Catalog
	diags map[string]*settingDiag
	order []string
	used  map[string]bool // unchecked names some setting used
	// only, when not nil, are the roles whose services are checked.
	only []string
	// report is where what went unchecked or equals a default goes.
	report *plan.SettingsCheck
}

// settingDiag is one diagnostic and where it applies.
type settingDiag struct {
	sev             hcl.DiagnosticSeverity
	rng             hcl.Range
	summary, detail string
	where           []string
}

// check checks one settings overlay of service t, written in where
// ("service x" or "variant y").
func (sc *settingsChecker) check(t target, s plan.Settings, unchecked []string, where string) {
	used := map[string]bool{}
	for _, sec := range sortedKeys(s) {
		keys := s[sec]
		if t.conf == "" {
			sc.note(fmt.Sprintf("%s [%s]: no catalog conf for this service", whereService(where, t.service), sec))
			continue
		}
		if slices.Contains(unchecked, sec) {
			used[sec] = true
			sc.note(fmt.Sprintf("%s [%s]: unchecked", whereService(where, t.service), sec))
			continue
		}
		ref, f := sc.cat.Section(t.conf, sec, sc.useOf(t, sec, keys))
		if f.Error() {
			sc.add(hcl.DiagError, firstRange(keys), "Unknown settings section", sectionDetail(t, sec, f), where)
			continue
		}
		if f.Kind == catalog.Unchecked {
			sc.note(fmt.Sprintf("%s [%s]: %s", whereService(where, t.service), sec, f.Message))
		}
		for _, k := range sortedKeys(keys) {
			sc.key(t, ref, sec, k, keys[k], unchecked, used, where)
		}
	}
	sc.markUsed(used)
}

// key checks one key of a section.
func (sc *settingsChecker) key(t target, ref catalog.SectionRef, sec, k string, v plan.Setting, unchecked []string, used map[string]bool, where string) {
	if slices.Contains(unchecked, k) {
		used[k] = true
		sc.note(fmt.Sprintf("%s [%s] %s: unchecked", whereService(where, t.service), sec, k))
		return
	}
	value := v.Value
	if v.Sensitive || secrets.Key(sec, k) {
		value = "" // a secret's value is never checked, so never printed
	}
	f := ref.Check(k, value)
	switch {
	case f.Kind == catalog.Retired:
		sc.add(hcl.DiagWarning, v.Range, "Retired Swift option", f.Message, where)
	case f.Kind == catalog.BadValue && value == "":
	case f.Error():
		sc.add(hcl.DiagError, v.Range, keySummary(f), keyDetail(t, f), where)
	case f.Kind == catalog.Known && f.Option.HasDefault() && value == f.Option.Default:
		sc.report.AtDefault = append(sc.report.AtDefault,
			fmt.Sprintf("%s %s", whereService(where, t.service), describeSetting(sec, k, v)))
	}
}

// useOf is a section's paste.deploy entry point: its own use setting,
// else the service's, else the template's.
func (sc *settingsChecker) useOf(t target, sec string, keys map[string]plan.Setting) string {
	if u, ok := keys["use"]; ok {
		return u.Value
	}
	if s := sc.tb.Service(t.service); s != nil {
		if u, ok := s.Settings[sec]["use"]; ok {
			return u.Value
		}
	}
	return t.uses[sec]
}

// markUsed records which unchecked names some setting used.
func (sc *settingsChecker) markUsed(used map[string]bool) {
	for n := range used {
		sc.used[n] = true
	}
}

// warnUnused warns about each unchecked name that no setting used: a
// misspelt name would otherwise leave the setting it meant checked, or
// an unchecked list outlive what it was for.
func (sc *settingsChecker) warnUnused(names []string, rng hcl.Range, owner string) {
	for _, n := range names {
		if !sc.used[n] {
			sc.add(hcl.DiagWarning, rng, "Unchecked name not set",
				fmt.Sprintf("%s lists %q in unchecked, and none of its settings is a section or key of that name", owner, n), owner)
		}
	}
}

// note records a line for plan's list of what went unchecked.
func (sc *settingsChecker) note(line string) {
	if !slices.Contains(sc.report.Unchecked, line) {
		sc.report.Unchecked = append(sc.report.Unchecked, line)
	}
}

// add records a diagnostic, merging one the same range and text already
// has (a for_each's instances).
func (sc *settingsChecker) add(sev hcl.DiagnosticSeverity, rng hcl.Range, summary, detail, where string) {
	k := fmt.Sprintf("%s\x00%s\x00%s", rng, summary, detail)
	if d := sc.diags[k]; d != nil {
		d.where = append(d.where, where)
		return
	}
	sc.diags[k] = &settingDiag{sev: sev, rng: rng, summary: summary, detail: detail, where: []string{where}}
	sc.order = append(sc.order, k)
}

// emit adds the collected diagnostics, in the order first found.
func (sc *settingsChecker) emit(add addFunc) {
	for _, k := range sc.order {
		d := sc.diags[k]
		detail := d.detail
		if len(d.where) > 1 {
			detail += fmt.Sprintf(" (in %d instances: %s)", len(d.where), strings.Join(d.where, ", "))
		}
		add(d.sev, d.rng, d.summary, "%s", detail)
	}
}

// firstRange is the range where a section was named, from its first key.
func firstRange(keys map[string]plan.Setting) hcl.Range {
	for _, k := range sortedKeys(keys) {
		return keys[k].SectionRange
	}
	return hcl.Range{}
}

// keySummary is the summary line of a key's finding.
func keySummary(f catalog.Finding) string {
	if f.Kind == catalog.BadValue {
		return "Invalid value for a Swift option"
	}
	return "Unknown Swift option"
}

// keyDetail is a key finding's message with its suggestion and the way
// out for an option the catalog cannot know.
func keyDetail(t target, f catalog.Finding) string {
	if f.Kind == catalog.BadValue {
		return f.Message
	}
	return f.Message + "." + didYouMean(f.Suggest) +
		fmt.Sprintf(" (An option of a patched Swift or of a third-party middleware is allowed where service %q or the variant lists it: unchecked = [\"KEY\"].)", t.service)
}

// sectionDetail is a section finding's message with its suggestion, and
// for a middleware's the way out for one the catalog cannot know.
func sectionDetail(t target, sec string, f catalog.Finding) string {
	kind, _, _ := strings.Cut(sec, ":")
	if kind != "filter" && kind != "app" {
		return f.Message + "." + didYouMean(f.Suggest)
	}
	return f.Message + "." + didYouMean(f.Suggest) +
		fmt.Sprintf(" (A third-party middleware's section is allowed where service %q lists it: unchecked = [\"SECTION\"].)", t.service)
}

// didYouMean is " Did you mean a, b or c?" or "".
func didYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " Did you mean " + names[0] + "?"
	}
	return " Did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?"
}

// whereService is "service x" for a service's own settings, "variant v,
// service x" for a variant's set block.
func whereService(where, service string) string {
	if where == "service "+service {
		return where
	}
	return where + ", service " + service
}
