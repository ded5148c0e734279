package importer

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"benchbed/templates"
)

// serverRoles are the roles of Swift's servers, in a testbed's order.
var serverRoles = []string{"proxy", "object", "container", "account"}

// addHosts makes a host of each host's facts.
func (d *draft) addHosts(facts []*Facts) {
	for _, f := range facts {
		d.Hosts = append(d.Hosts, &dHost{Name: f.Host, Facts: f})
	}
}

// setAddresses gives every host the address the rings know it by (one of
// its own addresses), else its servers' bind_ip, else its first address.
func (d *draft) setAddresses() {
	for _, h := range d.Hosts {
		h.Address = d.ringAddress(h.Facts)
		if h.Address == "" {
			h.Address = bindIP(h.Facts)
		}
		if h.Address == "" && len(h.Facts.Addrs) > 0 {
			h.Address = h.Facts.Addrs[0]
		}
		if h.Address == "" {
			h.Address = h.Name
		}
	}
}

// ringAddress is the first ring device address that is one of f's.
func (d *draft) ringAddress(f *Facts) string {
	for _, r := range d.Rings {
		for _, x := range r.Devs {
			if f.hasAddr(x.IP) {
				return x.IP
			}
		}
	}
	return ""
}

// bindIP is the first bind_ip of f's server confs that is an address of
// its own.
func bindIP(f *Facts) string {
	for _, p := range slices.Sorted(maps.Keys(f.Confs)) {
		c, err := templates.Parse(p, f.Confs[p])
		if err != nil {
			continue
		}
		if v, ok := c.Value("DEFAULT", "bind_ip"); ok && f.hasAddr(v) {
			return v
		}
	}
	return ""
}

// checkPlaced reports ring devices at an address no host read has.
func (d *draft) checkPlaced() {
	for _, r := range d.Rings {
		seen := map[string]bool{}
		for _, x := range r.Devs {
			if d.hostAt(x.IP) == nil && !seen[x.IP] {
				seen[x.IP] = true
				d.Diags.add(Error, "", "ring %s has devices at %s, which no host read has: name that host too (benchbed import HOST... %s)", r.Name, x.IP, x.IP)
			}
		}
	}
}

// hostAt returns the host whose address is addr, or nil.
func (d *draft) hostAt(addr string) *dHost {
	for _, h := range d.Hosts {
		if h.Address == addr {
			return h
		}
	}
	return nil
}

// setRoles gives each host the roles of the rings it has devices in, of
// the servers it runs, and proxy where it has a proxy-server.conf; a host
// with none is a client.
func (d *draft) setRoles() {
	for _, h := range d.Hosts {
		roles := map[string]bool{}
		for _, r := range d.Rings {
			if len(hostDevs(r, h.Address)) > 0 {
				roles[ringRole(r.Name)] = true
			}
		}
		for _, s := range h.Facts.Servers() {
			if s.Kind == "server" {
				roles[s.Role] = true
			}
		}
		if _, ok := h.Facts.Confs["/etc/swift/proxy-server.conf"]; ok {
			roles["proxy"] = true // a proxy that is not running is still one (said by its service)
		}
		for _, r := range serverRoles {
			if roles[r] {
				h.Roles = append(h.Roles, r)
			}
		}
		if len(h.Roles) == 0 {
			h.Roles = []string{"client"}
		}
	}
}

// hostsWithRole are the hosts that have role.
func (d *draft) hostsWithRole(role string) []*dHost {
	var out []*dHost
	for _, h := range d.Hosts {
		if slices.Contains(h.Roles, role) {
			out = append(out, h)
		}
	}
	return out
}

// DiscoverAddrs are the ring devices' addresses that none of facts' hosts
// has: the hosts still to read.
func DiscoverAddrs(facts []*Facts) []string {
	var out []string
	for _, f := range facts {
		for _, r := range f.Rings {
			for _, x := range r.Devs {
				if !slices.Contains(out, x.IP) && !anyHasAddr(facts, x.IP) {
					out = append(out, x.IP)
				}
			}
		}
	}
	return out
}

func anyHasAddr(facts []*Facts, ip string) bool {
	for _, f := range facts {
		if f.hasAddr(ip) || f.Host == ip {
			return true
		}
	}
	return false
}

// HostName is the name a host found at addr gets: its ssh_config alias
// when the ssh_config text names one with that HostName, else the address
// with dashes for dots and colons.
func HostName(addr string, sshConfig []byte) string {
	for _, a := range parseSSHConfig(sshConfig) {
		if a.hostName == addr {
			return a.alias
		}
	}
	return "host-" + strings.NewReplacer(".", "-", ":", "-").Replace(addr)
}

// SSHPort is the Port ssh_config gives alias (0 = none): a testbed that
// reaches the host at its address needs it.
func SSHPort(alias string, sshConfig []byte) int {
	for _, a := range parseSSHConfig(sshConfig) {
		if a.alias == alias {
			return a.port
		}
	}
	return 0
}

// sshAlias is what a Host block of ssh_config says of one plain alias.
type sshAlias struct {
	alias, hostName string
	port            int
}

// parseSSHConfig reads the plain aliases (no wildcards) of ssh_config
// text with their HostName and Port, the first value of each winning as
// in OpenSSH.
func parseSSHConfig(text []byte) []sshAlias {
	var out []sshAlias
	var cur []int // indexes into out of the current Host line's aliases
	for _, l := range strings.Split(string(text), "\n") {
		w := strings.Fields(strings.ReplaceAll(l, "=", " "))
		if len(w) < 2 || strings.HasPrefix(w[0], "#") {
			continue
		}
		switch strings.ToLower(w[0]) {
		case "host":
			cur = nil
			for _, a := range w[1:] {
				if !strings.ContainsAny(a, "*?!") {
					cur = append(cur, len(out))
					out = append(out, sshAlias{alias: a})
				}
			}
		case "match":
			cur = nil
		case "hostname":
			for _, i := range cur {
				if out[i].hostName == "" {
					out[i].hostName = w[1]
				}
			}
		case "port":
			n, _ := strconv.Atoi(w[1])
			for _, i := range cur {
				if out[i].port == 0 {
					out[i].port = n
				}
			}
		}
	}
	return out
}
