package decode

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// RoleDaemons are the background daemons a service of each role may run
// beside its server, from the server's conf: Swift's
// swift-<role>-<daemon> commands and Debian's units of the same names.
var RoleDaemons = map[string][]string{
	"object":    {"replicator", "auditor", "updater", "reconstructor"},
	"container": {"replicator", "auditor", "updater", "sharder", "sync"},
	"account":   {"replicator", "auditor", "reaper"},
}

// daemons decodes a service's daemons list, each one its role has (after
// the role is decoded).
func (d *decoder) daemons(a *hcl.Attribute, s *plan.Service) []string {
	ds, ok := d.Strings(a, d.Ctx)
	if !ok {
		return nil
	}
	d.CheckUnique(a, ds, "daemon")
	var out []string
	for _, x := range ds {
		if !slices.Contains(RoleDaemons[s.Role], x) {
			d.Errorf(a.Expr.Range().Ptr(), "Unknown daemon", "service %q (role %s): daemon %q is none of %q", s.Name, s.Role, x, RoleDaemons[s.Role])
			continue
		}
		out = append(out, x)
	}
	return out
}
