package lang

import (
	"github.com/hashicorp/hcl/v2"

	"benchbed/templates"
)

// Options are the inputs of a testbed's variables besides its file.
type Options struct {
	Vars     map[string]string // -var name=value, raw text
	VarFiles []string          // -var-file paths, applied in order (HCL or .json)
	Environ  []string          // "KEY=value" pairs searched for BENCHBED_VAR_<name>; nil = none
}

// Decoder evaluates one testbed file's expressions: its variables, locals,
// functions and for_each, within the file's budgets, and records the
// sensitive values they carry. The decoder of the blocks embeds it.
type Decoder struct {
	Dir   string          // the file's directory: relative paths resolve against it
	Opts  Options         // -var, -var-file and the environment
	Diags hcl.Diagnostics // every problem so far
	Ctx   *hcl.EvalContext
	// Variables, Files and Sensitive are the testbed's: the variables by
	// name, the parsed sources (variable files added) and the values of
	// sensitive variables to mask in output.
	Variables map[string]*Variable
	Files     map[string]*hcl.File
	Sensitive []string
	// Elements are the override blocks that name no block, of a type
	// some block of which has for_each: each may name one element of it
	// (ElementOverride takes them; ReportElements reports the rest).
	Elements []*hcl.Block

	sens   map[string]bool // sensitive values already listed in Sensitive
	vars   map[string]*varDecl
	locals map[string]localDecl
	// walked counts the values the expressions built (CheckSize);
	// overBudget is set once they exceed MaxTotalNodes.
	walked     int
	overBudget bool
}

// Errorf appends an error diagnostic.
func (d *Decoder) Errorf(subject *hcl.Range, summary, format string, a ...any) {
	d.Diags = append(d.Diags, Diagf(hcl.DiagError, subject, summary, format, a...))
}

// ReadLimited reads a testbed input (the file, a variable file, file()'s
// argument, a scenario file) as a regular file of bounded size.
func ReadLimited(p string) ([]byte, error) { return templates.ReadBounded(p) }

// Limits of the evaluation, far beyond any testbed one writes.
const (
	MaxLocals  = 4096 // local values
	MaxForEach = 4096 // the points of one for_each (decode's MaxVariants and MaxWorkloads are as many)
)
