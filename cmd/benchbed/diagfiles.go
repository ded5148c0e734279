package main

import (
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// maskedFiles returns copies of tb's files for diagnostics' source
// snippets, each secret starred out in place (the same number of bytes,
// so every range still points where it did). A file whose masking changes
// its number of lines is left out: its snippets say the source is not
// available rather than show a secret.
func maskedFiles(tb *plan.Testbed) map[string]*hcl.File {
	out := map[string]*hcl.File{}
	for name, f := range tb.Files {
		if f == nil || f.Bytes == nil {
			continue
		}
		if src, ok := starSecrets(f.Bytes, tb.MaskedSource(f.Bytes)); ok {
			out[name] = &hcl.File{Body: f.Body, Bytes: src, Nav: f.Nav}
		}
	}
	return out
}

// starSecrets returns src with each line that masked (src with its
// secrets replaced) changes starred from the first byte that differs to
// the last: a line keeps its length. ok is false when the two differ in
// their number of lines.
func starSecrets(src, masked []byte) ([]byte, bool) {
	lines := bytes.Split(src, []byte("\n"))
	mlines := bytes.Split(masked, []byte("\n"))
	if len(lines) != len(mlines) {
		return nil, false
	}
	for i, l := range lines {
		if !bytes.Equal(l, mlines[i]) {
			lines[i] = starDiff(l, mlines[i])
		}
	}
	return bytes.Join(lines, []byte("\n")), true
}

// starDiff returns l with the bytes between its common prefix and common
// suffix with m replaced by '*'.
func starDiff(l, m []byte) []byte {
	p := 0
	for p < len(l) && p < len(m) && l[p] == m[p] {
		p++
	}
	s := 0
	for s < len(l)-p && s < len(m)-p && l[len(l)-1-s] == m[len(m)-1-s] {
		s++
	}
	return []byte(string(l[:p]) + strings.Repeat("*", len(l)-p-s) + string(l[len(l)-s:]))
}
