package plan

import (
	"fmt"
	"slices"
)

// SystemPython is the interpreter Debian's swift-* scripts run with; the
// EC probe uses it, since another python3 on PATH may not see
// dist-packages' pyeclib.
const SystemPython = "/usr/bin/python3"

// ECProbeCommand is a shell command that exits 0 when PyECLib on the host
// can build p's EC driver (its ec_type with its fragment counts), as Swift
// does when it loads swift.conf; it prints PyECLib's error otherwise. It
// is "" for a replicated policy.
func ECProbeCommand(p *Policy) string {
	if !p.IsEC() {
		return ""
	}
	py := fmt.Sprintf("import pyeclib.ec_iface as e; d = e.ECDriver(k=%d, m=%d, ec_type='%s'); "+
		"f = d.encode(b'benchbed' * 8192); assert len(f) == %d",
		p.ECData, p.ECParity, p.ECType, p.ECData+p.ECParity)
	return SystemPython + ` -c "` + py + `"`
}

// ECProbes are the probe commands of the testbed's EC policies, one per
// distinct (ec_type, data, parity), in policy order.
func (tb *Testbed) ECProbes() []string {
	var out []string
	for _, p := range tb.StoragePolicies() {
		if c := ECProbeCommand(p); c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// ECHosts are the hosts that must load the EC backend: every host that
// runs a proxy or an object server (they encode, decode and reconstruct),
// in declaration order; none without an EC policy.
func (tb *Testbed) ECHosts() []*Host {
	if !tb.HasEC() {
		return nil
	}
	var out []*Host
	for _, h := range tb.Hosts {
		if h.HasRole("proxy") || h.HasRole("object") {
			out = append(out, h)
		}
	}
	return out
}

// ECPackages are the Debian packages an EC policy of ecType needs on its
// proxy and object hosts, beyond Swift's own (which depend on
// python3-pyeclib and liberasurecode1); nil for a type with no Debian
// package (shss, libphazr: vendor libraries).
func ECPackages(ecType string) []string {
	base := []string{"python3-pyeclib", "liberasurecode1"}
	switch ecType {
	case "liberasurecode_rs_vand", "flat_xor_hd_3", "flat_xor_hd_4":
		return base
	case "isa_l_rs_vand", "isa_l_rs_cauchy":
		return append(base, "libisal2")
	case "jerasure_rs_vand", "jerasure_rs_cauchy":
		return append(base, "libjerasure2", "libgf-complete1")
	}
	return nil
}

// ECPackageList is every package the testbed's EC policies need, in
// policy order, without repeats.
func (tb *Testbed) ECPackageList() []string {
	var out []string
	for _, p := range tb.StoragePolicies() {
		if !p.IsEC() {
			continue
		}
		for _, pkg := range ECPackages(p.ECType) {
			if !slices.Contains(out, pkg) {
				out = append(out, pkg)
			}
		}
	}
	return out
}
