package lang

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// diagf builds one diagnostic.
func Diagf(sev hcl.DiagnosticSeverity, subject *hcl.Range, summary, format string, a ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: sev, Summary: summary, Detail: fmt.Sprintf(format, a...), Subject: subject}
}

// WriteDiagnostics prints diags to w, one per line as
// "FILE:LINE,COL: summary" ("FILE:LINE,COL: warning: summary" for warnings),
// each followed by its detail indented, sorted by position. files (a
// Testbed's Files) may be nil; it is kept for callers that want to show
// source lines later. Diagnostics without a range print as "summary".
func WriteDiagnostics(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics) error {
	_ = files
	sorted := append(hcl.Diagnostics(nil), diags...)
	sort.SliceStable(sorted, func(i, j int) bool { return diagLess(sorted[i], sorted[j]) })
	for _, d := range sorted {
		if _, err := io.WriteString(w, FormatDiagnostic(d)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// FormatDiagnostic returns d as "FILE:LINE,COL: summary" followed by its
// detail on indented lines.
func FormatDiagnostic(d *hcl.Diagnostic) string {
	var b strings.Builder
	if d.Subject != nil {
		fmt.Fprintf(&b, "%s:%d,%d: ", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
	}
	if d.Severity == hcl.DiagWarning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Summary)
	if detail := strings.TrimSpace(d.Detail); detail != "" {
		for _, line := range strings.Split(detail, "\n") {
			b.WriteString("\n    " + line)
		}
	}
	return b.String()
}

// diagLess orders diagnostics by file, line and column; those without a
// range come first.
func diagLess(a, b *hcl.Diagnostic) bool {
	if a.Subject == nil || b.Subject == nil {
		return a.Subject == nil && b.Subject != nil
	}
	if a.Subject.Filename != b.Subject.Filename {
		return a.Subject.Filename < b.Subject.Filename
	}
	if a.Subject.Start.Line != b.Subject.Start.Line {
		return a.Subject.Start.Line < b.Subject.Start.Line
	}
	return a.Subject.Start.Column < b.Subject.Start.Column
}
