package templates

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed builtin/*.conf.tmpl
var builtinFS embed.FS

const builtinSuffix = ".conf.tmpl"

// Builtins returns the names of the built-in templates, sorted:
// account-server, container-server, object-server, proxy-server, swift.
func Builtins() []string {
	ents, _ := fs.ReadDir(builtinFS, "builtin")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), builtinSuffix))
	}
	sort.Strings(names)
	return names
}

// BuiltinText returns the text of the built-in template name
// ("object-server"), false when there is none.
func BuiltinText(name string) (string, bool) { return builtinText(name) }

func builtinText(name string) (string, bool) {
	if strings.ContainsAny(name, `/\`) {
		return "", false
	}
	b, err := builtinFS.ReadFile("builtin/" + strings.TrimSuffix(name, ".conf") + builtinSuffix)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// builtinFile is how sources name a built-in template.
func builtinFile(name string) string {
	return "builtin/" + strings.TrimSuffix(name, ".conf") + ".conf"
}
