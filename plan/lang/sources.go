package lang

import (
	"github.com/hashicorp/hcl/v2"
)

// MaxFiles bounds the files of one testbed (the file named and the files
// it includes, however deep).
const MaxFiles = 64

// Sources holds the budgets of a testbed of several files: each file is
// prescanned on its own (Prescan's limits), and together they hold at most
// MaxFiles files, MaxSourceSize bytes, MaxTokens tokens and MaxBlocks
// top-level blocks, the limits of one file, so that including files cannot
// multiply what a testbed makes benchbed hold in memory.
type Sources struct {
	files, bytes, tokens, blocks int
}

// Add prescans src, one more file of the testbed, and counts it against the
// testbed's totals; from names the include that brought it in (nil for
// the first file), the subject of a total exceeded.
func (s *Sources) Add(src []byte, filename string, from *hcl.Range) hcl.Diagnostics {
	c, diags := prescan(src, filename, false)
	if diags.HasErrors() {
		return diags
	}
	s.files++
	s.bytes += len(src)
	s.tokens += c.tokens
	s.blocks += c.blocks
	switch {
	case s.files > MaxFiles:
		return limitDiag(subject(from, filename), "Too many files",
			"a testbed is at most %d files, its includes counted", MaxFiles)
	case s.bytes > MaxSourceSize:
		return limitDiag(subject(from, filename), "Testbed too large",
			"a testbed's files hold at most %d bytes of HCL in all", MaxSourceSize)
	case s.tokens > MaxTokens:
		return limitDiag(subject(from, filename), "Testbed too large",
			"a testbed's files hold at most %d tokens in all", MaxTokens)
	case s.blocks > MaxBlocks:
		return limitDiag(subject(from, filename), "Too many blocks",
			"a testbed's files hold at most %d top-level blocks in all", MaxBlocks)
	}
	return nil
}

// subject is from, or the start of filename when nil.
func subject(from *hcl.Range, filename string) hcl.Range {
	if from != nil {
		return *from
	}
	return hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}
}
