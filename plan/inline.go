package plan

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// blockInclude is the type of the block that names another file of the
// testbed (plan/decode reads it).
const blockInclude = "include"

// Inlined returns the testbed as one file: File's text with each include
// block replaced by the text of the file it names (itself inlined),
// between comment lines that name it. An include of a file already
// inlined is left out, as the load reads a file once; an include whose
// file was not read stays as it is. The result holds the same blocks in
// the same order as the testbed's files, so it loads as the testbed does
// (relative paths in it resolve against File's directory, as the load
// resolves them): a run directory keeps it as testbed.hcl, and tests edit
// it as one text. A testbed of one file is that file's text.
func (tb *Testbed) Inlined() []byte {
	var w bytes.Buffer
	tb.inline(&w, tb.File, map[string]bool{})
	return w.Bytes()
}

// inline writes the file read as path, its includes inlined; seen holds
// the absolute paths written so far.
func (tb *Testbed) inline(w *bytes.Buffer, path string, seen map[string]bool) {
	seen[absPath(path)] = true
	f := tb.Files[path]
	if f == nil {
		return
	}
	src := f.Bytes
	at := 0
	if body, ok := f.Body.(*hclsyntax.Body); ok {
		for _, b := range body.Blocks {
			if b.Type != blockInclude || len(b.Labels) != 1 {
				continue
			}
			name := b.Labels[0]
			if !filepath.IsAbs(name) {
				name = filepath.Join(filepath.Dir(path), name)
			}
			if tb.Files[name] == nil {
				continue
			}
			r := b.Range()
			w.Write(src[at:r.Start.Byte])
			at = r.End.Byte
			if seen[absPath(name)] {
				fmt.Fprintf(w, "# %s: included above", name)
				continue
			}
			fmt.Fprintf(w, "# ---- %s\n", name)
			tb.inline(w, name, seen)
			if n := w.Len(); n > 0 && w.Bytes()[n-1] != '\n' {
				w.WriteByte('\n')
			}
			fmt.Fprintf(w, "# ---- end of %s", name)
		}
	}
	w.Write(src[at:])
}

// absPath is p made absolute and clean (p cleaned when the working
// directory is unknown), a file's identity as plan/decode reads it.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
