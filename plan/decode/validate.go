package decode

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
	"benchbed/plan/optcheck"
)

// validate checks references between blocks of a decoded testbed and
// returns every problem found. After decoding errors (partial) it skips
// what would only repeat them: fields left empty by an error, and the port
// layout.
func validate(tb *plan.Testbed, partial bool) hcl.Diagnostics {
	if diags := tooMany(tb); diags != nil {
		return diags
	}
	var diags hcl.Diagnostics
	add := func(sev hcl.DiagnosticSeverity, rng hcl.Range, summary, format string, a ...any) {
		diags = append(diags, lang.Diagf(sev, rng.Ptr(), summary, format, a...))
	}
	validateRoles(tb, add)
	if !partial {
		validateCounts(tb, add)
		validateRingSizes(tb, add)
	}
	validateRings(tb, add)
	validatePolicies(tb, add, partial)
	validateVariants(tb, add, partial)
	validateFaults(tb, add)
	validateVariantUse(tb, add)
	validateHostsAndUsers(tb, add)
	validateS3(tb, add)
	validatePaths(tb, add)
	diags = append(diags, optcheck.Check(tb)...)
	validateLimits(tb, add)
	return diags
}

type addFunc func(sev hcl.DiagnosticSeverity, rng hcl.Range, summary, format string, a ...any)

// validateRoles checks that every host role is served by a service (or is
// client) and that every service's role is some host's.
func validateRoles(tb *plan.Testbed, add addFunc) {
	served := map[string]bool{plan.RoleClient: true}
	for _, s := range tb.Services {
		served[s.Role] = true
		if s.Role != "" && len(tb.HostsWithRole(s.Role)) == 0 {
			add(hcl.DiagError, s.DefRange, "No host for service role",
				"service %q runs on hosts with role %q, and no host has it", s.Name, s.Role)
		}
	}
	for _, g := range tb.Generics {
		served[g.Role] = true
		if g.Role != "" && len(tb.HostsWithRole(g.Role)) == 0 {
			add(hcl.DiagError, g.DefRange, "No host for service role",
				"service %q runs on hosts with role %q, and no host has it", g.Name, g.Role)
		}
	}
	for _, h := range tb.Hosts {
		for _, r := range h.Roles {
			if !served[r] {
				add(hcl.DiagError, h.DefRange, "Role served by no service",
					"host %q has role %q, which no service block serves (roles are served by service { role = ... })", h.Name, r)
			}
		}
	}
}

// validateCounts requires at least one variant and one workload.
func validateCounts(tb *plan.Testbed, add addFunc) {
	if len(tb.Variants) == 0 {
		add(hcl.DiagError, tb.DefRange, "No variants", "the testbed needs at least one variant block (variant \"normal\" {} measures the services as configured)")
	}
	if len(tb.Workloads) == 0 {
		add(hcl.DiagError, tb.DefRange, "No workloads", "the testbed needs at least one workload block")
	}
}

// validateRings checks each ring's hosts, disk group and builder.
func validateRings(tb *plan.Testbed, add addFunc) {
	for _, r := range tb.Rings {
		hosts := tb.HostsWithRole(r.Role)
		if len(hosts) == 0 {
			add(hcl.DiagError, r.DefRange, "No host for ring", "ring %q needs hosts with role %q, and there are none", r.Name, r.Role)
			continue
		}
		if r.Disks == "" {
			continue // its error is reported
		}
		found := false
		for _, h := range hosts {
			found = found || h.DiskGroup(r.Disks) != nil
		}
		if !found {
			add(hcl.DiagError, r.DefRange, "Ring disk group on no host",
				"ring %q uses disks %q, and no host with role %q has a disks %q block", r.Name, r.Disks, r.Role, r.Disks)
		}
		if r.Builder != "" && tb.Host(r.Builder) == nil {
			add(hcl.DiagError, r.DefRange, "Unknown builder host", "ring %q: builder %q is no host of this testbed", r.Name, r.Builder)
		}
	}
}

// validateVariants checks the services and rings that variants name, and
// warns where servers_per_port cannot isolate disks.
func validateVariants(tb *plan.Testbed, add addFunc, partial bool) {
	layouts := &layoutErrors{tb: tb}
	for _, v := range tb.Variants {
		for name, r := range v.Runs {
			if tb.Generic(name) == nil {
				add(hcl.DiagError, r.DefRange, "Variant changes an unknown generic service",
					"variant %q has service %q, and no service of kind \"generic\" is named %q", v.Name, name, name)
			}
		}
		for name := range v.Set {
			if tb.Service(name) == nil && tb.Generic(name) == nil {
				add(hcl.DiagError, v.DefRange, "Variant sets an unknown service",
					"variant %q has set %q, and no service is named %q", v.Name, name, name)
			}
		}
		for name, perDisk := range v.RingPort {
			r := tb.Ring(name)
			if r == nil {
				add(hcl.DiagError, v.DefRange, "Variant sets an unknown ring", "variant %q has ring %q, and there is no such ring", v.Name, name)
			} else if perDisk && r.Role != "object" {
				add(hcl.DiagWarning, v.DefRange, "port_per_disk on a non-object ring",
					"variant %q gives ring %q one port per disk; only object servers use servers_per_port", v.Name, name)
			}
		}
		warnServersPerPort(tb, v, add)
		if err := layouts.of(v); err != nil && !partial {
			add(hcl.DiagError, v.DefRange, "Ring ports collide",
				"%s\ngive the ring a port_base whose per-disk ports stay clear of the other rings' ports", err)
		}
	}
}

// warnServersPerPort warns when a variant runs an object server with
// servers_per_port > 0 while an object ring keeps one port per host: every
// disk then shares the same servers and nothing is isolated.
func warnServersPerPort(tb *plan.Testbed, v *plan.Variant, add addFunc) {
	for _, s := range tb.Services {
		if s.Role != "object" {
			continue
		}
		set, ok := tb.Effective(s, v)["DEFAULT"]["servers_per_port"]
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(set.Value))
		if err != nil || n <= 0 {
			continue
		}
		var shared []string
		for _, r := range tb.Rings {
			if r.Role == "object" && !v.PortPerDisk(r.Name) {
				shared = append(shared, r.Name)
			}
		}
		if len(shared) > 0 {
			add(hcl.DiagWarning, set.Range, "servers_per_port without a port per disk",
				"variant %q runs %s with servers_per_port = %d while ring %q keeps one port per host, so disks are not isolated; add ring %q { port_per_disk = true } to the variant",
				v.Name, s.Name, n, strings.Join(shared, ", "), shared[0])
		}
	}
}

// validateHostsAndUsers warns about two hosts at one address (the rings
// would see one server) and workloads with fewer users than agents (some
// agents would have nothing to do).
func validateHostsAndUsers(tb *plan.Testbed, add addFunc) {
	seen := map[string]*plan.Host{}
	for _, h := range tb.Hosts {
		if prev := seen[h.Address]; prev != nil && h.Address != "" {
			add(hcl.DiagWarning, h.DefRange, "Hosts share an address",
				"hosts %q and %q both have address %s: rings and services see one server there", prev.Name, h.Name, h.Address)
			continue
		}
		seen[h.Address] = h
	}
	for _, w := range tb.Workloads {
		users, _ := plan.RunShape(w)
		agents := len(w.Clients) * w.AgentsPerClient
		if users > 0 && users < agents {
			add(hcl.DiagWarning, w.DefRange, "Fewer users than agents",
				"workload %q runs %d users on %d agents: %d agents get no user", w.Name, users, agents, agents-users)
		}
	}
}
