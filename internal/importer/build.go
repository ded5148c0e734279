package importer

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/render"
	"benchbed/templates"
	"benchbed/templates/catalog"
	"benchbed/templates/secrets"
)

// Options are what Build writes besides the hosts' facts.
type Options struct {
	SSH SSH // the ssh block
	// Ports are the SSH ports of hosts reached through an ssh_config
	// alias with a Port (the testbed reaches them at their address).
	Ports map[string]int
	Path  string // where the testbed goes, for its diagnostics ("" = imported.hcl)
}

// Result is a written testbed.
type Result struct {
	Text  []byte // the testbed, no secret in it
	Diags Diags
	// Vars are its sensitive variables' values, by name: what the user
	// gives with --var or BENCHBED_VAR_name (never printed).
	Vars map[string]string
	// Confs is how many confs the baseline renders, Identical how many of
	// them byte for byte as the hosts have them (the others setting for
	// setting, or in the Diags).
	Confs, Identical int
}

// Build describes the cluster of facts as a testbed (see the package
// comment). It touches no host.
func Build(facts []*Facts, opt Options) *Result {
	path := cmp.Or(opt.Path, "imported.hcl")
	d := &draft{SSH: opt.SSH, Ports: opt.Ports}
	cat := d.setVersion(facts)
	d.describe(facts)
	res := &Result{Vars: d.varValues()}
	// First pass: what the templates alone render for these hosts, which
	// the settings are the difference from.
	first, diags := decodeText(path, d.writeHCL(false), res.Vars)
	if !d.decoded(diags, "first pass") {
		d.Diags = maskDiags(d.Diags, res.Vars)
		res.Text, res.Diags = d.writeHCL(false), d.Diags
		return res
	}
	if r1, err := render.Render(first, first.Variant(baseline), render.Options{}); err != nil {
		d.Diags.add(Error, "", "rendering the first pass: %v", err)
	} else {
		d.setSettings(r1, cat)
	}
	res.Vars = d.varValues()
	// Second pass: the testbed written, checked against the hosts.
	tb, diags := decodeText(path, d.writeHCL(true), res.Vars)
	if d.decoded(diags, "the testbed written") {
		if r, err := render.Render(tb, tb.Variant(baseline), render.Options{}); err != nil {
			d.Diags.add(Error, "", "rendering the baseline: %v", err)
		} else {
			res.Confs, res.Identical = len(r.Confs), d.checkRendering(tb, r, cat)
		}
	}
	d.Diags = maskDiags(d.Diags, res.Vars) // before they are written into the testbed's head too
	res.Text, res.Diags = d.writeHCL(true), d.Diags
	return res
}

// describe fills the draft from the facts, in the order each step needs:
// rings before addresses (a host is known by its ring address), addresses
// before roles and disks, roles before services and the workload.
func (d *draft) describe(facts []*Facts) {
	d.addHosts(facts)
	for _, name := range ringNames(facts) {
		if r := d.readRing(facts, name); r != nil {
			d.Rings = append(d.Rings, r)
		}
	}
	d.setAddresses()
	d.checkPlaced()
	d.setRoles()
	d.setDisks()
	d.checkStrayDisks()
	for _, r := range d.Rings {
		d.ringPorts(r, d.Hosts, d.confPort(ringRole(r.Name)))
	}
	d.checkZones()
	d.readSwiftConf()
	d.rereadDiags(facts)
	d.setServices()
	d.setWorkload()
}

// varValues are the sensitive variables' values by name.
func (d *draft) varValues() map[string]string {
	out := map[string]string{}
	for _, v := range d.Vars {
		out[v.Name] = v.Value
	}
	return out
}

// maskDiags masks every secret's value in the diagnostics' messages: a
// message quoting a conf line (a parse error) never shows one.
func maskDiags(ds Diags, vars map[string]string) Diags {
	var values []string
	for _, v := range vars {
		values = append(values, v)
	}
	set := secrets.New(values...)
	out := make(Diags, len(ds))
	for i, x := range ds {
		x.Message = set.Mask(x.Message)
		out[i] = x
	}
	return out
}

// decodeText decodes a written testbed with its secrets' values.
func decodeText(path string, text []byte, vars map[string]string) (*plan.Testbed, hcl.Diagnostics) {
	return decode.LoadSource(path, text, decode.LoadOptions{Vars: vars})
}

// decoded records a written testbed's decoding errors (a bug, or a cluster
// the language cannot hold) and reports whether there were none.
func (d *draft) decoded(diags hcl.Diagnostics, pass string) bool {
	for _, x := range diags.Errs() {
		d.Diags.add(Error, "", "%s does not validate: %v", pass, x)
	}
	return !diags.HasErrors()
}

// setVersion takes the hosts' Swift version (reporting hosts that run
// another) and the catalog of its options: the carried one of that
// version, else of the newest carried release not above it.
func (d *draft) setVersion(facts []*Facts) *catalog.Catalog {
	for _, f := range facts {
		switch {
		case f.Version == "":
		case d.Version == "":
			d.Version = f.Version
		case f.Version != d.Version:
			d.Diags.add(Error, f.Host, "runs Swift %s, other hosts %s: the settings are compared with %s's defaults", f.Version, d.Version, d.Version)
		}
	}
	if d.Version == "" {
		d.Diags.add(Warning, "", "no host could import Swift's python module: settings are compared with no catalog of defaults")
		return nil
	}
	vs := catalog.Versions()
	pick := ""
	for _, v := range vs {
		if templates.CompareVersions(v, d.Version) <= 0 {
			pick = v
		}
	}
	if pick == "" && len(vs) > 0 {
		pick = vs[0]
	}
	cat, err := catalog.Load(pick)
	if err != nil {
		d.Diags.add(Warning, "", "%v", err)
		return nil
	}
	if pick != d.Version {
		d.Diags.add(Note, "", "the hosts run Swift %s; benchbed carries no catalog of it, so Swift %s's defaults are used", d.Version, pick)
	}
	d.Catalog = pick
	return cat
}

// confPort is the bind_port of role's server conf on its first host (0 =
// none), for a ring with one port per disk.
func (d *draft) confPort(role string) int {
	for _, h := range d.hostsWithRole(role) {
		for p, text := range h.Facts.Confs {
			if p != "/etc/swift/"+role+"-server.conf" {
				continue
			}
			f, err := templates.Parse(p, text)
			if err != nil {
				continue
			}
			if v, ok := f.Value("DEFAULT", "bind_port"); ok {
				var n int
				if _, err := fmt.Sscan(v, &n); err == nil {
					return n
				}
			}
		}
	}
	return 0
}

// VarNames are the sensitive variables' names, sorted.
func (r *Result) VarNames() []string { return slices.Sorted(maps.Keys(r.Vars)) }
