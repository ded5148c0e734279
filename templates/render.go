package templates

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"text/template"
)

// Data is what a template sees. Built-in templates use Host, Service and
// Proxies; a user template may use anything here.
type Data struct {
	Host    Host              // the host the file is rendered for
	Service Service           // the service whose conf this is
	Hosts   []Host            // every host of the testbed, in declaration order
	Proxies []Host            // the hosts with the proxy role
	Vars    map[string]string // the testbed's variables (a missing one is an error)
	Auth    []User            // tempauth users of the workloads
}

// Host is a host as templates see it.
type Host struct {
	Name    string
	Address string
	Roles   []string
	Facts   map[string]string   // hardware facts
	Disks   map[string][]string // disk group -> disk names
}

// Service is a service as templates see it.
type Service struct {
	Name string // e.g. "object-server"
	Role string // e.g. "object"
	Path string // where the conf goes, e.g. /etc/swift/object-server.conf
	Port int    // the ring port of the role on this host (0 when no ring)
}

// User is a tempauth user: user_<Account>_<User> = <Key> .admin
type User struct {
	Account, User, Key string
}

// Template is a parsed template, built in or from a file.
type Template struct {
	Name    string // built-in name ("object-server") or file path as given
	File    string // what sources say: "builtin/object-server.conf" or the path
	tmpl    *template.Template
	marked  map[int]bool
	builtin bool
}

// Load returns the built-in template name, or else parses the template file
// name (relative paths from dir).
func Load(name, dir string) (*Template, error) {
	if text, ok := builtinText(name); ok {
		return parseTemplate(name, builtinFile(name), text, true)
	}
	path := name
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	text, err := ReadBounded(path)
	if err != nil {
		return nil, fmt.Errorf("template %q: not a built-in template (%s) and %w", name, strings.Join(Builtins(), ", "), err)
	}
	return parseTemplate(name, name, string(text), false)
}

// ParseTemplate returns a template from text; file names it in sources and
// errors.
func ParseTemplate(file, text string) (*Template, error) {
	return parseTemplate(file, file, text, false)
}

func parseTemplate(name, file, text string, builtin bool) (*Template, error) {
	marked, lines := markLines(text)
	t, err := template.New(file).Option("missingkey=error").Parse(marked)
	if err != nil {
		return nil, fmt.Errorf("%s", fixColumns(strings.TrimPrefix(err.Error(), "template: "), lines))
	}
	return &Template{Name: name, File: file, tmpl: t, marked: lines, builtin: builtin}, nil
}

// Builtin reports whether t is one of the built-in templates.
func (t *Template) Builtin() bool { return t.builtin }

// Execute renders t with data and parses the result as INI; every entry's
// Source is the template line that produced it. A missing map key or field
// fails naming the template and line.
func (t *Template) Execute(data any) (*File, error) {
	var b bytes.Buffer
	if err := t.tmpl.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("%s", fixColumns(strings.TrimPrefix(err.Error(), "template: "), t.marked))
	}
	text, src := unmark(b.String())
	p := &parser{f: &File{Name: t.File}, name: t.File, layer: "template",
		lineOf: func(n int) (string, int) { return t.File, src[n-1] }}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if err := p.line(i+1, strings.TrimRight(line, "\r")); err != nil {
			return nil, fmt.Errorf("rendered %w", err)
		}
	}
	p.finish()
	return p.f, nil
}

// Render executes t with data, overlays the layers in order and checks the
// result: paste.deploy sections and options Swift removed. The warnings
// carry no host; callers add it.
func Render(t *Template, data any, layers ...Layer) (*File, []Warning, error) {
	f, err := t.Execute(data)
	if err != nil {
		return nil, nil, err
	}
	warns := f.Apply(layers...)
	warns = append(warns, f.CheckPaste()...)
	warns = append(warns, CheckRemoved(f, "")...)
	return f, warns, nil
}
