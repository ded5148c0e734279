package decode

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// MaxReplicas bounds a ring's replica count: Swift takes any, a testbed
// with more than this is a mistake.
const MaxReplicas = 16

// finite evaluates a number attribute that must be finite and within
// [min, max] (1e400 is +Inf, and refused).
func (d *decoder) finite(a *hcl.Attribute, ctx *hcl.EvalContext, min, max float64, what string) (float64, bool) {
	f, ok := d.Number(a, ctx)
	if !ok {
		return 0, false
	}
	if math.IsInf(f, 0) || math.IsNaN(f) || f < min || f > max {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must be %s, got %s", a.Name, what, strconv.FormatFloat(f, 'g', -1, 64))
		return 0, false
	}
	return f, true
}

// checkURLPort reports a URL's port that is not 1..65535 (tcp://:99999).
func checkURLPort(u *url.URL) bool {
	p := u.Port()
	if p == "" {
		return true
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

// checkAuthURL refuses an auth URL that is not http(s) with a host (and a
// valid port): file:///etc/passwd, "not a url at all".
func (d *decoder) checkAuthURL(a *hcl.Attribute, s string) {
	u, err := url.Parse(s)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && checkURLPort(u) {
		return
	}
	d.Errorf(a.Expr.Range().Ptr(), "Invalid auth URL", "url %q: the auth URL is http:// or https:// with a host (and a port 1..65535), e.g. http://proxy1:8080/auth/v1.0", s)
}

// checkHealthURL reports a health check URL that does not parse as one
// (tcp://ADDR:PORT or an http(s) URL, an empty ADDR the host's, a port
// 1..65535); a health check without "://" is a command.
func (d *decoder) checkHealthURL(a *hcl.Attribute, h string) {
	if !strings.Contains(h, "://") {
		return
	}
	u, err := url.Parse(h)
	ok := err == nil && u.Host != "" && checkURLPort(u) &&
		(u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "tcp" && u.Port() != "")
	if !ok {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid health check",
			"health %q: a check with :// is tcp://ADDR:PORT or an http(s) URL, with a port 1..65535 (an empty ADDR is the host's: tcp://:80)", h)
	}
}

// validateRingSizes refuses a ring without devices, and per-disk ports
// past 65535 (port_base + the disks of a host) in a variant that uses
// them.
func validateRingSizes(tb *plan.Testbed, add addFunc) {
	l, err := tb.Layout(nil)
	if err != nil {
		return // reported as a port collision
	}
	for _, rl := range l.Rings {
		r := rl.Ring
		groups := 0
		for _, h := range tb.HostsWithRole(r.Role) {
			if h.DiskGroup(r.Disks) != nil {
				groups++
			}
		}
		if groups > 0 && len(rl.Devices) == 0 {
			add(hcl.DiagError, r.DefRange, "Ring without devices", "ring %q has no device: no host with role %q has a disk in group %q", r.Name, r.Role, r.Disks)
		}
	}
	validatePortRange(tb, add)
}

// warnReplicas warns, at its replicas attribute a, of a ring given more
// replicas than its devices (Swift then keeps more than one replica of a
// partition on a device). The hosts are decoded before the rings.
func (d *decoder) warnReplicas(r *plan.Ring, a *hcl.Attribute) {
	n := 0
	for _, h := range d.tb.HostsWithRole(r.Role) {
		if g := h.DiskGroup(r.Disks); g != nil {
			n += len(g.Disks)
		}
	}
	if n > 0 && float64(n) < r.Replicas {
		d.Diags = append(d.Diags, lang.Diagf(hcl.DiagWarning, a.Expr.Range().Ptr(), "Fewer devices than replicas",
			"ring %q has %d devices for %s replicas: Swift will keep more than one replica of a partition on a device",
			r.Name, n, strconv.FormatFloat(r.Replicas, 'g', -1, 64)))
	}
}

// validatePortRange refuses per-disk ports past 65535.
func validatePortRange(tb *plan.Testbed, add addFunc) {
	done := map[string]bool{}
	for _, v := range tb.Variants {
		for name, perDisk := range v.RingPort {
			r := tb.Ring(name)
			if !perDisk || r == nil || done[name] {
				continue
			}
			most := 0
			for _, h := range tb.HostsWithRole(r.Role) {
				if g := h.DiskGroup(r.Disks); g != nil {
					most = max(most, len(g.Disks))
				}
			}
			if last := plan.FirstDiskPort(r) + most - 1; most > 0 && last > 65535 {
				done[name] = true
				add(hcl.DiagError, r.DefRange, "Ring port out of range",
					"ring %q: variant %q gives each disk its own port, from port_base %d to %d, past 65535", name, v.Name, plan.FirstDiskPort(r), last)
			}
		}
	}
}
