package templates

import (
	"bytes"
	"fmt"
	"strings"
)

// ExecuteText renders t with data as plain text, for confs that are not
// INI (nginx.conf, a daemon's own syntax). A missing map key or field
// fails naming the template and line, as Execute does.
func (t *Template) ExecuteText(data any) ([]byte, error) {
	var b bytes.Buffer
	if err := t.tmpl.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("%s", fixColumns(strings.TrimPrefix(err.Error(), "template: "), t.marked))
	}
	text, _ := unmark(b.String())
	return []byte(text), nil
}

// PlainData is what a plain (not INI) conf template sees: the host it is
// rendered for, every host, the testbed's variables, and the service's
// settings with the variant's on top (section -> key -> value), so that a
// variant changes the file through {{ .Settings.http.sendfile }}.
type PlainData struct {
	Host     Host
	Hosts    []Host
	Vars     map[string]string
	Settings map[string]map[string]string
}
