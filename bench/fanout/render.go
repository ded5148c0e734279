package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

// conf is one file to push: a template (from a .j2 file) or plain content.
type conf struct {
	name string // file name on the host
	tmpl *template.Template
	raw  []byte
}

// jinjaVar matches the only Jinja the bench templates use: {{ name }}.
var jinjaVar = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// loadTemplates reads dir: NAME.j2 is a template for NAME, other files are
// copied as they are.
func loadTemplates(dir string) ([]conf, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []conf
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		name, isTmpl := strings.CutSuffix(e.Name(), ".j2")
		c := conf{name: name, raw: b}
		if isTmpl {
			src := jinjaVar.ReplaceAllString(string(b), `{{index . "$1"}}`)
			if c.tmpl, err = template.New(name).Parse(src); err != nil {
				return nil, fmt.Errorf("%s: %w", e.Name(), err)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

func (c conf) render(vars map[string]string) ([]byte, error) {
	if c.tmpl == nil {
		return c.raw, nil
	}
	for _, m := range jinjaVar.FindAllStringSubmatch(string(c.raw), -1) {
		if _, ok := vars[m[1]]; !ok {
			return nil, fmt.Errorf("undefined variable %q", m[1])
		}
	}
	var b bytes.Buffer
	if err := c.tmpl.Execute(&b, vars); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
