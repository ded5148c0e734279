package decode

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// validatePolicies checks the policy blocks against each other and their
// rings as Swift 2.30 would when it loads swift.conf and the rings, and
// the policies that workloads name.
func validatePolicies(tb *plan.Testbed, add addFunc, partial bool) {
	validatePolicySet(tb, add)
	if !partial {
		validatePolicyRings(tb, add)
	}
	for _, w := range tb.Workloads {
		if w.Policy != "" && tb.Policy(w.Policy) == nil {
			add(hcl.DiagError, w.PolicyRange, "Unknown storage policy",
				"workload %q names policy %q, which is no policy of this testbed (known: %s)", w.Name, w.Policy, policyList(tb))
		}
	}
}

// validatePolicySet checks indexes, names and the default.
func validatePolicySet(tb *plan.Testbed, add addFunc) {
	ps := tb.Policies
	if len(ps) == 0 {
		return
	}
	byIndex := map[int]*plan.Policy{}
	names := map[string]*plan.Policy{}
	var defaults []*plan.Policy
	enabled := false
	for _, p := range ps {
		if prev := byIndex[p.Index]; prev != nil {
			add(hcl.DiagError, p.DefRange, "Duplicate policy index", "policy %q has index %d, as policy %q at %s", p.Name, p.Index, prev.Name, prev.DefRange)
		}
		byIndex[p.Index] = p
		for _, n := range p.Names() {
			if prev := names[strings.ToUpper(n)]; prev != nil && prev != p {
				add(hcl.DiagError, p.DefRange, "Duplicate policy name", "policy %q: the name %q is already policy %q's at %s (Swift compares names case-insensitively)", p.Name, n, prev.Name, prev.DefRange)
			} else if prev == p && !strings.EqualFold(n, p.Name) {
				add(hcl.DiagError, p.DefRange, "Duplicate policy name", "policy %q lists the alias %q twice", p.Name, n)
			}
			names[strings.ToUpper(n)] = p
		}
		if p.Default {
			defaults = append(defaults, p)
		}
		enabled = enabled || !p.Deprecated
	}
	if byIndex[0] == nil {
		add(hcl.DiagError, ps[0].DefRange, "No policy with index 0", "Swift needs a policy with index 0 once any policy is declared (its ring is \"object\")")
	}
	if !enabled {
		add(hcl.DiagError, ps[0].DefRange, "Every policy deprecated", "at least one policy must not be deprecated")
	}
	switch {
	case len(defaults) > 1:
		add(hcl.DiagError, defaults[1].DefRange, "Several default policies", "policy %q is default, and so is policy %q at %s: exactly one may be", defaults[1].Name, defaults[0].Name, defaults[0].DefRange)
	case len(defaults) == 0:
		add(hcl.DiagError, ps[0].DefRange, "No default policy", "with %d policies exactly one needs default = true", len(ps))
	}
}

// validatePolicyRings checks that every policy has its ring, that an EC
// ring's replicas are (data + parity) x duplication with at least that many
// devices, and warns of object rings no policy uses.
func validatePolicyRings(tb *plan.Testbed, add addFunc) {
	if len(tb.Policies) == 0 {
		return
	}
	layout, err := tb.Layout(nil)
	if err != nil {
		return // reported by validateVariants
	}
	for _, p := range tb.Policies {
		rl := layout.Ring(p.RingName())
		if rl == nil {
			add(hcl.DiagError, p.DefRange, "Policy without ring", "policy %q (index %d) needs a ring %q block", p.Name, p.Index, p.RingName())
			continue
		}
		r, devs := rl.Ring, len(rl.Devices)
		if p.IsEC() {
			want := p.ECReplicas()
			if r.Replicas != float64(want) {
				add(hcl.DiagError, r.DefRange, "EC ring replicas", "ring %q of policy %q has replicas = %s; Swift requires exactly %d (%d data + %d parity, x%d duplication)",
					r.Name, p.Name, strconv.FormatFloat(r.Replicas, 'g', -1, 64), want, p.ECData, p.ECParity, p.Duplication())
			}
			if devs > 0 && devs < want {
				add(hcl.DiagError, r.DefRange, "Too few devices for EC", "ring %q of policy %q has %d devices; its %d fragments need at least %d", r.Name, p.Name, devs, want, want)
			}
		} else if devs > 0 && float64(devs) < r.Replicas {
			add(hcl.DiagWarning, r.DefRange, "Fewer devices than replicas", "ring %q of policy %q has %d devices for %s replicas: several replicas share a device", r.Name, p.Name, devs, strconv.FormatFloat(r.Replicas, 'g', -1, 64))
		}
	}
	for _, r := range tb.Rings {
		if r.Role == "object" && !ringHasPolicy(tb.Policies, r.Name) {
			add(hcl.DiagWarning, r.DefRange, "Ring serves no policy", "ring %q belongs to no policy block: Swift will not use it", r.Name)
		}
	}
}

func ringHasPolicy(ps []*plan.Policy, ring string) bool {
	for _, p := range ps {
		if p.RingName() == ring {
			return true
		}
	}
	return false
}

// policyList names the testbed's policies for a message.
func policyList(tb *plan.Testbed) string {
	var names []string
	for _, p := range tb.StoragePolicies() {
		names = append(names, p.Names()...)
	}
	return strings.Join(names, ", ")
}
