package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
)

// validateJSON is `validate --json`'s output, the shape of Terraform's
// `validate -json`, so that editors and CI read it as they read that.
type validateJSON struct {
	FormatVersion string     `json:"format_version"` // "1.0"
	Valid         bool       `json:"valid"`          // no error
	ErrorCount    int        `json:"error_count"`    // diagnostics of severity error
	WarningCount  int        `json:"warning_count"`  // diagnostics of severity warning
	Diagnostics   []diagJSON `json:"diagnostics"`    // sorted by position, each once
}

// diagJSON is one diagnostic; Range and Snippet are absent without a
// source range.
type diagJSON struct {
	Severity string       `json:"severity"` // "error" or "warning"
	Summary  string       `json:"summary"`  // the first line of the text form
	Detail   string       `json:"detail"`   // what to do
	Range    *rangeJSON   `json:"range,omitempty"`
	Snippet  *snippetJSON `json:"snippet,omitempty"`
}

// rangeJSON is a source range: its file and first and last positions.
type rangeJSON struct {
	Filename string  `json:"filename"`
	Start    posJSON `json:"start"`
	End      posJSON `json:"end"`
}

// posJSON is a position: 1-based line and column, 0-based byte offset.
type posJSON struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// snippetJSON is the source around a range: the enclosing block (context,
// or null), its lines (code) from start_line, and where the range is in
// code (byte offsets).
type snippetJSON struct {
	Context              *string `json:"context"`
	Code                 string  `json:"code"`
	StartLine            int     `json:"start_line"`
	HighlightStartOffset int     `json:"highlight_start_offset"`
	HighlightEndOffset   int     `json:"highlight_end_offset"`
	Values               []any   `json:"values"`
}

// writeValidateJSON prints diags as validateJSON on w, masked.
func writeValidateJSON(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File, mask func(string) string) error {
	out := validateJSON{FormatVersion: "1.0", Diagnostics: []diagJSON{}}
	for _, d := range sortDiagnostics(diags) {
		j := diagJSON{Severity: "error", Summary: mask(d.Summary), Detail: mask(d.Detail)}
		if d.Severity == hcl.DiagWarning {
			j.Severity = "warning"
			out.WarningCount++
		} else {
			out.ErrorCount++
		}
		if r := d.Subject; r != nil {
			j.Range = &rangeJSON{Filename: r.Filename, Start: posJSON{r.Start.Line, r.Start.Column, r.Start.Byte},
				End: posJSON{r.End.Line, r.End.Column, r.End.Byte}}
			j.Snippet = snippetOf(files[r.Filename], *r, mask)
		}
		out.Diagnostics = append(out.Diagnostics, j)
	}
	out.Valid = out.ErrorCount == 0
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// snippetOf is the snippet of rng in f (nil without its source): the
// lines rng covers, masked.
func snippetOf(f *hcl.File, rng hcl.Range, mask func(string) string) *snippetJSON {
	if f == nil || f.Bytes == nil {
		return nil
	}
	var lines []string
	start := -1
	sc := hcl.NewRangeScanner(f.Bytes, rng.Filename, bufio.ScanLines)
	for sc.Scan() {
		lr := sc.Range()
		if lr.Start.Line >= rng.Start.Line && lr.Start.Line <= max(rng.End.Line, rng.Start.Line) {
			if start < 0 {
				start = lr.Start.Byte
			}
			lines = append(lines, string(sc.Bytes()))
		}
	}
	if start < 0 {
		return nil
	}
	code := strings.Join(lines, "\n")
	s := &snippetJSON{Code: mask(code), StartLine: rng.Start.Line, Values: []any{},
		HighlightStartOffset: min(max(rng.Start.Byte-start, 0), len(code)), HighlightEndOffset: min(max(rng.End.Byte-start, 0), len(code))}
	if c := hcled.ContextString(f, rng.Start.Byte); c != "" {
		s.Context = &c
	}
	return s
}
