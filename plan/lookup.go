package plan

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/templates/secrets"
)

// RoleClient is the role of hosts that run load agents.
const RoleClient = "client"

// RoleProxy is the role of hosts that run the proxy server.
const RoleProxy = "proxy"

// RoleObject is the role of hosts that run the object server: their page
// cache holds the objects the GETs read.
const RoleObject = "object"

// Host returns the host named name, or nil.
func (tb *Testbed) Host(name string) *Host {
	for _, h := range tb.Hosts {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// Service returns the service named name, or nil.
func (tb *Testbed) Service(name string) *Service {
	for _, s := range tb.Services {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Ring returns the ring named name, or nil.
func (tb *Testbed) Ring(name string) *Ring {
	for _, r := range tb.Rings {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Variant returns the variant named name, or nil.
func (tb *Testbed) Variant(name string) *Variant {
	for _, v := range tb.Variants {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Workload returns the workload named name, or nil.
func (tb *Testbed) Workload(name string) *Workload {
	for _, w := range tb.Workloads {
		if w.Name == name {
			return w
		}
	}
	return nil
}

// HostsWithRole returns the hosts that have role r, in declaration order.
func (tb *Testbed) HostsWithRole(r string) []*Host {
	var out []*Host
	for _, h := range tb.Hosts {
		if h.HasRole(r) {
			out = append(out, h)
		}
	}
	return out
}

// Effective returns the settings of service s in variant v: the service's
// settings with the variant's overrides on top. v may be nil.
func (tb *Testbed) Effective(s *Service, v *Variant) Settings {
	out := Settings{}
	for sec, keys := range s.Settings {
		out[sec] = map[string]Setting{}
		for k, val := range keys {
			out[sec][k] = val
		}
	}
	if v == nil {
		return out
	}
	for sec, keys := range v.Set[s.Name] {
		if out[sec] == nil {
			out[sec] = map[string]Setting{}
		}
		for k, val := range keys {
			out[sec][k] = val
		}
	}
	return out
}

// Secrets returns the Set of the testbed's secret values (sensitive
// variables, auth keys): the one masking of everything benchbed prints or
// keeps (package secrets).
func (tb *Testbed) Secrets() *secrets.Set { return secrets.New(tb.Sensitive...) }

// Mask is tb.Secrets().Mask(s): s with every secret value (also in its JSON
// string form) and every Swift token replaced by secrets.Masked.
func (tb *Testbed) Mask(s string) string { return tb.Secrets().Mask(s) }

// MaskDiagnostics returns copies of diags whose summaries and details are
// masked; the source ranges are kept as they are.
func (tb *Testbed) MaskDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		c.Summary, c.Detail = tb.Mask(d.Summary), tb.Mask(d.Detail)
		out[i] = &c
	}
	return out
}

var ringNameRE = regexp.MustCompile(`^(account|container|object(-[0-9]+)?)$`)

// RingRole returns the host role that serves the ring named name: "object"
// for object and object-N, "container", "account"; "" for an invalid name.
func RingRole(name string) string {
	if !ringNameRE.MatchString(name) {
		return ""
	}
	if strings.HasPrefix(name, "object") {
		return "object"
	}
	return name
}

// BuilderHost is the host that keeps the ring builders: the first ring's
// builder when the testbed names one, else the first proxy, else the first
// host with a ring role (as setup chooses it). Setup, the sweep, the
// faults and the restore all ask it here.
func (tb *Testbed) BuilderHost() (*Host, error) {
	for _, r := range tb.Rings {
		if r.Builder != "" {
			if h := tb.Host(r.Builder); h != nil {
				return h, nil
			}
			return nil, fmt.Errorf("ring %s: builder host %q is not a host of %s", r.Name, r.Builder, tb.File)
		}
	}
	if ps := tb.HostsWithRole(RoleProxy); len(ps) > 0 {
		return ps[0], nil
	}
	for _, r := range tb.Rings {
		if hs := tb.HostsWithRole(r.Role); len(hs) > 0 {
			return hs[0], nil
		}
	}
	return nil, fmt.Errorf("%s: no proxy and no ring host to keep the ring builders", tb.File)
}
