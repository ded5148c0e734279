package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// refineDiagnostics rewrites the raw messages of HCL's parser that a
// newcomer meets first into ones that say what to write instead; files
// give the source the messages quote. The others are kept as they are.
func refineDiagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		out[i] = d
		if d.Summary == "Invalid argument name" && strings.Contains(d.Detail, "must not be quoted") {
			out[i] = quotedSection(d, quotedAt(files, d.Subject))
		}
	}
	return out
}

// quotedSection explains a quoted name written as an attribute: a conf
// section such as "app:object-server" goes in a settings attribute.
func quotedSection(d *hcl.Diagnostic, name string) *hcl.Diagnostic {
	if name == "" {
		name = `"app:object-server"`
	}
	c := *d
	c.Summary = "Quoted section outside settings"
	c.Detail = fmt.Sprintf("a name in quotes, as %s, cannot stand alone as an attribute: a conf section "+
		"whose name is not an identifier goes in a settings attribute, as\n"+
		"  settings = { %s = { key = value } }\n"+
		"(in a service block every section does; in a variant's set block, unquoted sections such as "+
		"DEFAULT = { ... } may also stand alone)", name, name)
	return &c
}

// quotedAt is the quoted string that starts at rng in files, quotes
// included, "" when unknown or long.
func quotedAt(files map[string]*hcl.File, rng *hcl.Range) string {
	if rng == nil || files[rng.Filename] == nil {
		return ""
	}
	src := files[rng.Filename].Bytes
	if rng.Start.Byte < 0 || rng.Start.Byte >= len(src) || src[rng.Start.Byte] != '"' {
		return ""
	}
	rest := src[rng.Start.Byte+1:]
	end := bytes.IndexAny(rest, "\"\n")
	if end < 0 || end > 80 || rest[end] != '"' {
		return ""
	}
	return string(src[rng.Start.Byte : rng.Start.Byte+end+2])
}
