package lang

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Block types that arrange a testbed's files rather than describe it; a
// testbed's schema has both (include with one label, the path).
const (
	BlockInclude  = "include"
	BlockOverride = "override"
)

// includeSchema: an include block names its file and holds nothing.
var includeSchema = &hcl.BodySchema{}

// files reads a testbed's files: the one named, and in place of each of
// its include blocks the file that block names (a path relative to the
// including file's directory), depth first, so that the testbed's blocks
// stand in the order of one file in which every include block is replaced
// by its file's blocks. A file reached twice is read once; a file that
// includes itself, directly or not, is an error. Every file is parsed
// within the testbed's budgets (Sources).
type files struct {
	schema    *hcl.BodySchema
	out       *Files
	budget    Sources
	seen      map[string]bool // absolute paths read (or being read)
	stack     []string        // absolute paths being read, the first outermost
	stackName []string        // the same, as given
	diags     hcl.Diagnostics // problems that stop the load: a file unread or unparsed
}

// Files is what reading a testbed's files gives: every file parsed, by
// name and in reading order, the testbed's blocks in order, its override
// blocks.
type Files struct {
	Parsed    map[string]*hcl.File // by name as read (the includer's directory joined)
	Order     []string             // the names, the first file first, in reading order
	Blocks    []*hcl.Block         // every top-level block but include and override, in order
	Overrides []*hcl.Block         // the override blocks, in reading order
	RootBody  hcl.Body             // the first file's body (nil when it did not parse)
	// Diags are the problems of the files' structure (a block of an
	// unknown type, an include's body): the decoding goes on after them.
	Diags hcl.Diagnostics
}

// ReadFiles reads the testbed whose first file is path with text src, each
// file's top-level body taken with schema (which has the include and
// override blocks). The diagnostics it returns stop the load: a file that
// cannot be read or parsed, a cycle of includes, a budget exceeded.
func ReadFiles(path string, src []byte, schema *hcl.BodySchema) (*Files, hcl.Diagnostics) {
	r := &files{schema: schema, out: &Files{Parsed: map[string]*hcl.File{}}, seen: map[string]bool{}}
	r.file(path, src, nil)
	return r.out, r.diags
}

// file parses one file (reached through the include at from, nil for the
// first) and takes its blocks, reading its includes in their place.
func (r *files) file(path string, src []byte, from *hcl.Range) {
	abs := absPath(path)
	r.seen[abs] = true
	if diags := r.budget.Add(src, path, from); diags.HasErrors() {
		r.diags = append(r.diags, diags...)
		return
	}
	f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	r.diags = append(r.diags, diags...)
	if f == nil {
		return
	}
	r.out.Parsed[path] = f
	r.out.Order = append(r.out.Order, path)
	if from == nil {
		r.out.RootBody = f.Body
	}
	if diags.HasErrors() {
		return
	}
	content, diags := f.Body.Content(r.schema)
	r.out.Diags = append(r.out.Diags, diags...)
	r.stack, r.stackName = append(r.stack, abs), append(r.stackName, path)
	for _, b := range content.Blocks {
		switch b.Type {
		case BlockInclude:
			r.include(path, b)
		case BlockOverride:
			r.out.Overrides = append(r.out.Overrides, b)
		default:
			r.out.Blocks = append(r.out.Blocks, b)
		}
	}
	r.stack, r.stackName = r.stack[:len(r.stack)-1], r.stackName[:len(r.stackName)-1]
}

// include reads the file an include block of the file at path names.
func (r *files) include(path string, b *hcl.Block) {
	_, diags := b.Body.Content(includeSchema)
	r.out.Diags = append(r.out.Diags, diags...)
	label := b.LabelRanges[0].Ptr()
	name := b.Labels[0]
	if strings.TrimSpace(name) == "" {
		r.diags = append(r.diags, Diagf(hcl.DiagError, label, "Invalid include", "an include block names a file: include \"lab.hcl\" {}"))
		return
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(path), name)
	}
	abs := absPath(name)
	for i, s := range r.stack {
		if s == abs {
			chain := append(append([]string(nil), r.stackName[i:]...), name)
			r.diags = append(r.diags, Diagf(hcl.DiagError, label, "Include cycle",
				"%s: a file cannot include itself, directly or through others", strings.Join(chain, " includes ")))
			return
		}
	}
	if r.seen[abs] {
		return // read already, through another include
	}
	src, err := ReadLimited(name)
	if err != nil {
		r.seen[abs] = true
		r.diags = append(r.diags, Diagf(hcl.DiagError, label, "Cannot read included file", "%s", pathError(err)))
		return
	}
	r.file(name, src, label)
}

// absPath is p made absolute and clean, the identity of a file read (p
// itself when the working directory is unknown).
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// pathError is err's text without Go's operation prefix ("open ").
func pathError(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}
