package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// diagWriter prints a testbed's diagnostics for users' eyes: per problem
// the greppable first line "FILE:LINE,COL: summary", then, indented, the
// source line with the range underlined (hcl's own diagnostic text
// writer) and the detail. Secrets are masked in every line.
type diagWriter struct {
	files map[string]*hcl.File // the testbed's files, secrets starred out
	mask  func(string) string
	color bool
}

// newDiagWriter returns the writer of tb's diagnostics to w, in colour
// when useColor(w) says so.
func newDiagWriter(tb *plan.Testbed, w io.Writer) *diagWriter {
	return &diagWriter{files: maskedFiles(tb), mask: tb.Mask, color: useColor(w)}
}

// useColor reports whether diagnostics on w are in colour: w is a
// terminal, and neither --no-color nor NO_COLOR says otherwise.
func useColor(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || global.noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// write prints diags to w sorted by position, each once.
func (dw *diagWriter) write(w io.Writer, diags hcl.Diagnostics) error {
	for _, d := range sortDiagnostics(diags) {
		if _, err := io.WriteString(w, dw.mask(dw.format(d))); err != nil {
			return err
		}
	}
	return nil
}

// format renders one diagnostic, ending in a newline.
func (dw *diagWriter) format(d *hcl.Diagnostic) string {
	var b strings.Builder
	b.WriteString(dw.header(d))
	body := d.Detail
	if d.Subject != nil {
		body = dw.snippet(d)
	}
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		if strings.TrimSpace(line) != "" {
			b.WriteString("\n    " + line)
		}
	}
	return b.String() + "\n"
}

// header is "FILE:LINE,COL: summary" ("warning: summary" for a
// warning), the summary in colour on a terminal.
func (dw *diagWriter) header(d *hcl.Diagnostic) string {
	var pos, sev string
	if d.Subject != nil {
		pos = fmt.Sprintf("%s:%d,%d: ", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
	}
	if d.Severity == hcl.DiagWarning {
		sev = "warning: "
	}
	if !dw.color {
		return pos + sev + d.Summary
	}
	code := "\x1b[1;31m"
	if d.Severity == hcl.DiagWarning {
		code = "\x1b[1;33m"
	}
	return pos + code + sev + d.Summary + "\x1b[0m"
}

// snippet is hcl's text of d without its summary line ("on FILE line N,
// in BLOCK:", the source lines, the detail), with a caret line under the
// subject's first line when there is no colour to underline it.
func (dw *diagWriter) snippet(d *hcl.Diagnostic) string {
	c := *d
	c.Summary = ""
	var buf bytes.Buffer
	if err := hcl.NewDiagnosticTextWriter(&buf, dw.files, 0, dw.color).WriteDiagnostic(&c); err != nil {
		return d.Detail
	}
	_, text, _ := strings.Cut(buf.String(), "\n\n")
	if dw.color {
		return text
	}
	prefix := fmt.Sprintf("%4d: ", d.Subject.Start.Line)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			caret := strings.Repeat(" ", len(prefix)) + carets(l[len(prefix):], d.Subject)
			return strings.Join(append(lines[:i+1], append([]string{caret}, lines[i+1:]...)...), "\n")
		}
	}
	return text
}

// carets underlines rng's part of its first line, src: the characters
// before it as blanks (tabs kept), then one ^ a character, at least one.
func carets(src string, rng *hcl.Range) string {
	var b strings.Builder
	col := 1
	for _, r := range src {
		if col >= rng.Start.Column {
			break
		}
		if r == '\t' {
			b.WriteRune('\t')
		} else {
			b.WriteByte(' ')
		}
		col++
	}
	n := utf8.RuneCountInString(src) - (rng.Start.Column - 1)
	if rng.End.Line == rng.Start.Line {
		n = rng.End.Column - rng.Start.Column
	}
	return b.String() + strings.Repeat("^", max(n, 1))
}

// sortDiagnostics returns diags ordered by file, line and column, those
// without a range first, identical ones (severity, summary, detail and
// range) once, and one error per range: the first said what is wrong
// with the value there, the others only follow from it.
func sortDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		k := fmt.Sprint(d.Severity, "\x00", d.Summary, "\x00", d.Detail, "\x00", d.Subject)
		if d.Severity == hcl.DiagError && d.Subject != nil {
			k = fmt.Sprint("error at ", *d.Subject)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return diagBefore(out[i].Subject, out[j].Subject) })
	return out
}

// diagBefore orders ranges by file, line and column; nil first.
func diagBefore(a, b *hcl.Range) bool {
	switch {
	case a == nil || b == nil:
		return a == nil && b != nil
	case a.Filename != b.Filename:
		return a.Filename < b.Filename
	case a.Start.Line != b.Start.Line:
		return a.Start.Line < b.Start.Line
	}
	return a.Start.Column < b.Start.Column
}
