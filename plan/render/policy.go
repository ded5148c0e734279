package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/templates"
)

// policyLayer declares the testbed's storage policies in swift.conf, in
// the [storage-policy:N] sections and keys Swift 2.30's storage_policy.py
// parses. Without policy blocks it names a replicated Policy-N for every
// object-N ring (policy 0 is the template's), as before policies existed.
func policyLayer(tb *plan.Testbed) templates.Layer {
	l := templates.Layer{Name: "host"}
	for _, p := range tb.StoragePolicies() {
		if !p.Declared {
			if p.Index != 0 {
				l.Add(policySection(p), "name", templates.Value{Value: p.Name, Source: rangeSource(p.DefRange)})
			}
			continue
		}
		for _, kv := range policyKeys(p) {
			l.Add(policySection(p), kv[0], templates.Value{Value: kv[1], Source: rangeSource(p.DefRange)})
		}
	}
	return l
}

// policySection is the swift.conf section of policy p.
func policySection(p *plan.Policy) string { return "storage-policy:" + strconv.Itoa(p.Index) }

// policyKeys are the swift.conf keys of a declared policy, in the order of
// Swift's swift.conf-sample.
func policyKeys(p *plan.Policy) [][2]string {
	out := [][2]string{{"name", p.Name}}
	if len(p.Aliases) > 0 {
		out = append(out, [2]string{"aliases", strings.Join(p.Aliases, ", ")})
	}
	out = append(out, [2]string{"policy_type", p.Type}, [2]string{"default", yesNo(p.Default)})
	if p.Deprecated {
		out = append(out, [2]string{"deprecated", "yes"})
	}
	if !p.IsEC() {
		return out
	}
	out = append(out, [2]string{"ec_type", p.ECType},
		[2]string{"ec_num_data_fragments", strconv.Itoa(p.ECData)},
		[2]string{"ec_num_parity_fragments", strconv.Itoa(p.ECParity)})
	if p.ECSegmentSize > 0 {
		out = append(out, [2]string{"ec_object_segment_size", strconv.FormatInt(p.ECSegmentSize, 10)})
	}
	if p.ECDuplication > 0 {
		out = append(out, [2]string{"ec_duplication_factor", strconv.Itoa(p.ECDuplication)})
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// perPolicyKeys are the proxy options a [proxy-server:policy:N] section may
// override (Swift 2.30's ProxyOverrideOptions); Swift ignores any other.
var perPolicyKeys = []string{"sorting_method", "read_affinity", "write_affinity", "write_affinity_node_count",
	"write_affinity_handoff_delete_count", "rebalance_missing_suppression_count", "concurrent_gets",
	"concurrency_timeout", "concurrent_ec_extra_requests"}

// ecOnlyKeys are proxy options only EC GETs use.
var ecOnlyKeys = []string{"concurrent_ec_extra_requests"}

// checkPolicySettings warns about proxy settings for policies that Swift
// ignores or refuses: a per-policy section of no policy (the proxy does not
// start), a key a per-policy section cannot override, and EC-only options
// where no EC policy would use them.
func checkPolicySettings(tb *plan.Testbed, r *Rendering) []templates.Warning {
	var warns []templates.Warning
	for _, c := range r.Confs {
		if c.Service == nil || !c.File.IsPaste() {
			continue
		}
		if isObjectServer(c.File) && !tb.HasEC() {
			warns = append(warns, reconstructorUnused(c)...)
		}
		if !isProxyServer(c.File) {
			continue
		}
		for _, s := range c.File.Sections {
			warns = append(warns, checkPolicySection(tb, c, s)...)
		}
	}
	return warns
}

// reconstructorUnused warns about [object-reconstructor] settings of an
// object server conf in a testbed without EC policies: the reconstructor
// only rebuilds EC fragments, so Swift ignores them.
func reconstructorUnused(c *Conf) []templates.Warning {
	s := c.File.Section("object-reconstructor")
	if s == nil {
		return nil
	}
	var warns []templates.Warning
	for _, e := range s.Entries {
		if e.Source.Layer != "settings" && e.Source.Layer != "set" {
			continue // the template's own
		}
		warns = append(warns, templates.Warning{Host: c.Host.Name, File: c.Path, Section: s.Name, Key: e.Key, Source: e.Source,
			Message: "the object reconstructor only rebuilds erasure-coded fragments, and this testbed has no EC policy: Swift ignores it"})
	}
	return warns
}

// checkPolicySection checks one section of a proxy server's conf.
func checkPolicySection(tb *plan.Testbed, c *Conf, s *templates.Section) []templates.Warning {
	var warns []templates.Warning
	warn := func(e *templates.Entry, msg string, a ...any) {
		w := templates.Warning{Host: c.Host.Name, File: c.Path, Section: s.Name, Message: fmt.Sprintf(msg, a...)}
		if e != nil {
			w.Key, w.Source = e.Key, e.Source
		}
		warns = append(warns, w)
	}
	idx, per := strings.CutPrefix(s.Name, "proxy-server:policy:")
	if !per {
		if s.Name == "app:proxy-server" && !tb.HasEC() {
			for _, e := range s.Entries {
				if slices.Contains(ecOnlyKeys, e.Key) {
					warn(e, "only GETs of erasure-coded policies use %s, and this testbed has none: Swift ignores it", e.Key)
				}
			}
		}
		return warns
	}
	i, err := strconv.Atoi(idx)
	p := tb.PolicyByIndex(i)
	if err != nil || p == nil {
		warn(nil, "no storage policy has index %s: Swift's proxy refuses to start (\"No policy found for override config\")", idx)
		return warns
	}
	for _, e := range s.Entries {
		switch {
		case !slices.Contains(perPolicyKeys, e.Key):
			warn(e, "a per-policy section cannot override %s: Swift ignores it (it overrides %s)", e.Key, strings.Join(perPolicyKeys, ", "))
		case !p.IsEC() && slices.Contains(ecOnlyKeys, e.Key):
			warn(e, "policy %d (%s) is replicated: Swift uses %s only for erasure-coded GETs", p.Index, p.Name, e.Key)
		}
	}
	return warns
}

// isProxyServer reports whether f is a proxy server's paste conf.
func isProxyServer(f *templates.File) bool {
	use, _ := f.Value("app:proxy-server", "use")
	return use == "egg:swift#proxy"
}
