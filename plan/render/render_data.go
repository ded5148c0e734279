package render

import (
	"strings"

	"benchbed/plan"
	"benchbed/templates"
)

// templateData is what templates see when rendering service s (nil:
// swift.conf) on host h.
func templateData(tb *plan.Testbed, h *plan.Host, s *plan.Service) templates.Data {
	d := templates.Data{Host: templateHost(h), Vars: map[string]string{}}
	for _, x := range tb.Hosts {
		d.Hosts = append(d.Hosts, templateHost(x))
		if x.HasRole("proxy") {
			d.Proxies = append(d.Proxies, templateHost(x))
		}
	}
	for name, v := range tb.Variables {
		if v.Set {
			d.Vars[name] = v.Value
		}
	}
	if s != nil {
		d.Service = templates.Service{Name: s.Name, Role: s.Role, Path: s.Path, Port: rolePort(tb, s.Role)}
	}
	d.Auth = tempauthUsers(tb)
	return d
}

func templateHost(h *plan.Host) templates.Host {
	t := templates.Host{Name: h.Name, Address: h.Address, Roles: h.Roles,
		Facts: map[string]string{}, Disks: map[string][]string{}}
	for _, f := range h.Hardware {
		t.Facts[f.Key] = f.Value
	}
	for _, g := range h.Disks {
		for _, d := range g.Disks {
			t.Disks[g.Name] = append(t.Disks[g.Name], d.Name)
		}
	}
	return t
}

// rolePort is the port of the first ring served by role, 0 when none.
func rolePort(tb *plan.Testbed, role string) int {
	for _, r := range tb.Rings {
		if r.Role == role {
			return r.Port
		}
	}
	return 0
}

// tempauthUsers are the distinct v1 users of the workloads: "acct:user"
// with its key.
func tempauthUsers(tb *plan.Testbed) []templates.User {
	var out []templates.User
	seen := map[string]bool{}
	for _, w := range tb.Workloads {
		a := w.Auth
		if a == nil || a.Kind != "v1" && a.Kind != "s3" { // an S3 workload's access key is tempauth's account:user
			continue
		}
		acct, user, ok := strings.Cut(a.User, ":")
		if !ok || seen[a.User] {
			continue
		}
		seen[a.User] = true
		out = append(out, templates.User{Account: acct, User: user, Key: a.Key})
	}
	return out
}
