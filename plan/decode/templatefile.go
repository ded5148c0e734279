package decode

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/templates"
)

// checkTemplateFile refuses, where template = name is written, a template
// that is not built in and whose file cannot be read (missing, not a
// regular file, larger than templates.MaxFileSize): render and diff read it
// later, and /dev/zero there would never end.
func (d *decoder) checkTemplateFile(a *hcl.Attribute, service, name string) {
	if name == "" || isBuiltin(name) {
		return
	}
	if err := templates.CheckBounded(d.Resolve(name)); err != nil {
		d.Errorf(a.Expr.Range().Ptr(), "Cannot read template", "service %q: %s", service, err)
	}
}

// isBuiltin reports whether name is a built-in template ("object-server",
// "object-server.conf").
func isBuiltin(name string) bool {
	return !strings.ContainsAny(name, `/\`) && slices.Contains(templates.Builtins(), strings.TrimSuffix(name, ".conf"))
}
