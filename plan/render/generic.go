package render

import (
	"fmt"
	"path/filepath"

	"benchbed/plan"
	"benchbed/templates"
)

// GenericConf is a generic service's conf rendered for one host.
type GenericConf struct {
	Host    *plan.Host
	Service *plan.Generic
	Path    string // absolute path on the host
	Content []byte // as written to the host, secrets in clear
	// Secret: Content holds a secret (a key naming one, a sensitive value
	// or a token: what secrets.Set.Conf masks), so it is written 0600.
	Secret bool
}

// Generic renders every generic service's conf (those that have
// one) on the hosts of its role for variant v (nil: as declared), hosts in declaration order. A
// plain template sees templates.PlainData, its .Settings the service's
// settings with the variant's set on top; an INI one is rendered as
// Swift's confs are, then overlaid by the settings and the variant's set
// key by key. A template that fails names the template and line.
func Generic(tb *plan.Testbed, v *plan.Variant) ([]*GenericConf, error) {
	var out []*GenericConf
	m := tb.Secrets()
	for _, h := range tb.Hosts {
		for _, g := range tb.Generics {
			if !h.HasRole(g.Role) || g.Path == "" {
				continue
			}
			b, err := renderGeneric(tb, g, v, h)
			if err != nil {
				return nil, fmt.Errorf("host %s, %s: %w", h.Name, g.Path, err)
			}
			out = append(out, &GenericConf{Host: h, Service: g, Path: g.Path, Content: b, Secret: m.Conf(string(b)) != string(b)})
		}
	}
	return out, nil
}

// renderGeneric renders g's conf for host h in variant v.
func renderGeneric(tb *plan.Testbed, g *plan.Generic, v *plan.Variant, h *plan.Host) ([]byte, error) {
	t, err := genericTemplate(tb, g)
	if err != nil {
		return nil, err
	}
	var set plan.Settings
	if v != nil {
		set = v.Set[g.Name]
	}
	if g.Format == plan.FormatINI {
		f, err := t.Execute(templateData(tb, h, nil))
		if err != nil {
			return nil, err
		}
		f.Apply(settingsLayer("settings", g.Settings), settingsLayer("set", set))
		return f.Bytes(), nil
	}
	d := templates.PlainData{Host: templateHost(h), Vars: templateData(tb, h, nil).Vars, Settings: map[string]map[string]string{}}
	for _, x := range tb.Hosts {
		d.Hosts = append(d.Hosts, templateHost(x))
	}
	for _, layer := range []plan.Settings{g.Settings, set} {
		for sec, keys := range layer {
			if d.Settings[sec] == nil {
				d.Settings[sec] = map[string]string{}
			}
			for k, val := range keys {
				d.Settings[sec][k] = val.Value
			}
		}
	}
	return t.ExecuteText(d)
}

// genericTemplate parses g's template: its file (relative to the
// testbed's directory) or its inline content.
func genericTemplate(tb *plan.Testbed, g *plan.Generic) (*templates.Template, error) {
	if g.Content != "" {
		return templates.ParseTemplate(tb.File+": service "+g.Name+" content", g.Content)
	}
	return templates.Load(g.Template, filepath.Dir(tb.File))
}
