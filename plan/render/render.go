package render

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/optcheck"
	"benchbed/templates"
	"benchbed/templates/catalog"
)

// SwiftConfPath is where Swift reads swift.conf, whatever swift_dir says.
const SwiftConfPath = "/etc/swift/swift.conf"

// Conf is one rendered file of one host.
type Conf struct {
	Host    *plan.Host
	Service *plan.Service // nil for the swift.conf benchbed adds itself
	Path    string        // absolute path on the host
	File    *templates.File
}

// Rendering is every conf of every host of one variant, and its ring layout.
type Rendering struct {
	Variant  *plan.Variant
	Confs    []*Conf // hosts in declaration order; swift.conf first, then services in order
	Layout   *plan.Layout
	Warnings []templates.Warning
	// Catalog is the catalog of Swift's options the testbed names (its
	// swift_version, or any carried), whose defaults a diff shows for
	// unset keys; nil when none could be loaded.
	Catalog *catalog.Catalog
	// Generic are the generic services' confs (kind = "generic"), hosts
	// in declaration order.
	Generic []*GenericConf
}

// Conf returns the conf at path on host, or nil.
func (r *Rendering) Conf(host, path string) *Conf {
	for _, c := range r.Confs {
		if c.Host.Name == host && c.Path == path {
			return c
		}
	}
	return nil
}

// Options narrow a rendering.
type Options struct {
	Hosts []string // only these hosts (nil = all)
}

// Render renders every conf of every host of variant v (nil = the services'
// own settings). Each service is rendered on the hosts of its role; every host
// that runs a service also gets /etc/swift/swift.conf: from the service whose
// path it is, whatever that service's role, else from the built-in template. Values overlay in order: template, the service's settings, the
// variant's set, then the host's facts (bind_ip of server confs). A template
// that fails (a missing value, a syntax error) fails the whole rendering,
// naming the template and line, before anything touches a host. The
// generic services' confs are rendered too (Generic).
func Render(tb *plan.Testbed, v *plan.Variant, opts Options) (*Rendering, error) {
	layout, err := tb.Layout(v)
	if err != nil {
		return nil, err
	}
	for _, name := range opts.Hosts {
		if tb.Host(name) == nil {
			return nil, fmt.Errorf("no host %q in %s", name, tb.File)
		}
	}
	r := &Rendering{Variant: v, Layout: layout, Catalog: optcheck.CatalogOf(tb)}
	cache := map[string]*templates.Template{}
	for _, h := range tb.Hosts {
		if opts.Hosts != nil && !slices.Contains(opts.Hosts, h.Name) {
			continue
		}
		if err := renderHost(tb, r, h, cache); err != nil {
			return nil, err
		}
	}
	r.Warnings = append(r.Warnings, checkRendering(tb, r)...)
	r.Warnings = append(r.Warnings, checkPolicySettings(tb, r)...)
	gen, err := Generic(tb, v)
	for _, g := range gen {
		if opts.Hosts == nil || slices.Contains(opts.Hosts, g.Host.Name) {
			r.Generic = append(r.Generic, g)
		}
	}
	return r, err
}

// GenericConf returns the generic conf at path on host, or nil.
func (r *Rendering) GenericConf(host, path string) *GenericConf {
	for _, c := range r.Generic {
		if c.Host.Name == host && c.Path == path {
			return c
		}
	}
	return nil
}

// renderHost renders the confs of host h into r.
func renderHost(tb *plan.Testbed, r *Rendering, h *plan.Host, cache map[string]*templates.Template) error {
	var services []*plan.Service
	for _, s := range tb.Services {
		if h.HasRole(s.Role) {
			services = append(services, s)
		}
	}
	if len(services) == 0 {
		return nil
	}
	if !writesPath(services, SwiftConfPath) {
		// swift.conf must be the same everywhere: a service that writes it
		// (whatever its role) writes it on every host.
		if err := renderConf(tb, r, h, swiftConfService(tb), cache); err != nil {
			return err
		}
	}
	for _, s := range services {
		if err := renderConf(tb, r, h, s, cache); err != nil {
			return err
		}
	}
	return nil
}

// renderConf renders service s (nil: swift.conf) for host h into r.
func renderConf(tb *plan.Testbed, r *Rendering, h *plan.Host, s *plan.Service, cache map[string]*templates.Template) error {
	name, path := "swift", SwiftConfPath
	if s != nil {
		name, path = s.Template, s.Path
	}
	t, err := template(tb, name, cache)
	if err != nil {
		return fmt.Errorf("host %s, %s: %w", h.Name, path, err)
	}
	f, err := t.Execute(templateData(tb, h, s))
	if err != nil {
		return fmt.Errorf("host %s, %s: %w", h.Name, path, err)
	}
	warns := overlay(tb, f, r.Variant, h, s)
	for i := range warns {
		warns[i].Host, warns[i].File = h.Name, path
	}
	r.Warnings = append(r.Warnings, warns...)
	r.Confs = append(r.Confs, &Conf{Host: h, Service: s, Path: path, File: f})
	return nil
}

// template loads (once per rendering) a built-in template or a file
// relative to the testbed's directory.
func template(tb *plan.Testbed, name string, cache map[string]*templates.Template) (*templates.Template, error) {
	if t, ok := cache[name]; ok {
		return t, nil
	}
	t, err := templates.Load(name, filepath.Dir(tb.File))
	if err != nil {
		return nil, err
	}
	cache[name] = t
	return t, nil
}

// overlay applies to f, rendered for service s (nil: swift.conf) on host h,
// the service's settings, the variant's set and the host's facts (bind_ip,
// in Swift server confs only), and checks the result.
func overlay(tb *plan.Testbed, f *templates.File, v *plan.Variant, h *plan.Host, s *plan.Service) []templates.Warning {
	var warns []templates.Warning
	if s == nil {
		f.Apply(policyLayer(tb))
	} else {
		var set templates.Layer
		if v != nil {
			set = settingsLayer("set", v.Set[s.Name])
		}
		warns = f.Apply(settingsLayer("settings", s.Settings), set)
	}
	if s != nil && f.IsPaste() {
		host := templates.Layer{Name: "host", Enforced: true}
		host.Add("DEFAULT", "bind_ip", templates.Value{Value: h.Address, Source: rangeSource(h.DefRange)})
		warns = append(warns, f.Apply(host)...)
		if l, ok := statsdLayer(tb, h); ok {
			warns = append(warns, f.Apply(l)...)
		}
	}
	warns = append(warns, f.CheckPaste()...)
	return append(warns, templates.CheckRemoved(f, "")...)
}

// settingsLayer turns HCL settings into a templates layer.
func settingsLayer(name string, s plan.Settings) templates.Layer {
	l := templates.Layer{Name: name}
	for sec, keys := range s {
		for k, v := range keys {
			l.Add(sec, k, templates.Value{Value: v.Value, Sensitive: v.Sensitive, Source: rangeSource(v.Range)})
		}
	}
	return l
}

func rangeSource(r hcl.Range) templates.Source {
	return templates.Source{File: r.Filename, Line: r.Start.Line}
}

// swiftConfService is the service that writes swift.conf, or nil.
func swiftConfService(tb *plan.Testbed) *plan.Service {
	for _, s := range tb.Services {
		if s.Path == SwiftConfPath {
			return s
		}
	}
	return nil
}

func writesPath(services []*plan.Service, path string) bool {
	for _, s := range services {
		if s.Path == path {
			return true
		}
	}
	return false
}
