package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Limits of the testbed language, checked on the tokens before HCL's
// parser (which recurses) sees them, so that no file can exhaust the stack
// or the memory: brackets, strings and templates nest at most MaxNesting
// deep, and one expression (an attribute's value, up to the end of its
// line outside brackets) holds at most MaxOperators operators.
// For expressions nest at most MaxForNesting deep (range() gives at most
// 1024 values, so two nested fors build at most a million).
// A file holds at most MaxTokens tokens and MaxBlocks top-level blocks
// (HCL keeps them all in memory), and one string or heredoc at most
// MaxTemplateCost (its lines times its bytes: HCL joins the lines of a
// heredoc in quadratic time; long text belongs in a template file).
const (
	MaxNesting      = 64
	MaxOperators    = 10000
	MaxForNesting   = 1
	MaxTokens       = 1 << 18
	MaxBlocks       = 16384
	MaxTemplateCost = 1 << 28
	// MaxSourceSize bounds the HCL text of a testbed or var file (other
	// files, read as text, may be larger: templates.MaxFileSize).
	MaxSourceSize = 2 << 20
)

// Prescan checks src (HCL native syntax, a whole file when expr is false,
// one expression when true) against MaxNesting and MaxOperators, with the
// lexer only: it does not recurse. It returns the first problem found.
func Prescan(src []byte, filename string, expr bool) hcl.Diagnostics {
	_, diags := prescan(src, filename, expr)
	return diags
}

// prescanCounts are what a prescan counted of a file: its tokens and
// top-level blocks, which a testbed of several files sums (Sources).
type prescanCounts struct {
	tokens, blocks int
}

// prescan is Prescan, returning the counts of a file it accepts.
func prescan(src []byte, filename string, expr bool) (prescanCounts, hcl.Diagnostics) {
	var none prescanCounts
	if len(src) > MaxSourceSize {
		pos := hcl.InitialPos
		return none, limitDiag(hcl.Range{Filename: filename, Start: pos, End: pos}, "File too large",
			"a testbed or variables file holds at most %d bytes of HCL, this one %d", MaxSourceSize, len(src))
	}
	var toks hclsyntax.Tokens
	if expr {
		toks, _ = hclsyntax.LexExpression(src, filename, hcl.InitialPos)
	} else {
		toks, _ = hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	}
	if len(toks) > MaxTokens {
		return none, limitDiag(toks[MaxTokens].Range, "File too large", "a testbed file holds at most %d tokens", MaxTokens)
	}
	if diags := prescanTemplates(toks); diags != nil {
		return none, diags
	}
	depth, ops, blocks := 0, 0, 0
	var fors []bool // per open bracket: it opens a for expression
	forDepth := 0
	for i, t := range toks {
		if t.Type == hclsyntax.TokenOBrace && depth == 0 {
			if blocks++; blocks > MaxBlocks {
				return none, limitDiag(t.Range, "Too many blocks", "a testbed file holds at most %d top-level blocks", MaxBlocks)
			}
		}
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenOQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			if depth++; depth > MaxNesting {
				return none, limitDiag(t.Range, "Nesting too deep",
					"brackets, strings and templates nest at most %d deep in a testbed", MaxNesting)
			}
			fors = append(fors, false)
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
			hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			if depth > 0 {
				depth--
				if fors[len(fors)-1] {
					forDepth--
				}
				fors = fors[:len(fors)-1]
			}
		case hclsyntax.TokenIdent:
			if len(fors) > 0 && i > 0 && string(t.Bytes) == "for" &&
				(toks[i-1].Type == hclsyntax.TokenOBrack || toks[i-1].Type == hclsyntax.TokenOBrace) {
				fors[len(fors)-1] = true
				if forDepth++; forDepth > MaxForNesting {
					return none, limitDiag(t.Range, "For expressions nested too deep",
						"for expressions nest at most %d deep in a testbed", MaxForNesting)
				}
			}
		case hclsyntax.TokenNewline:
			if depth == 0 {
				ops = 0
			}
		case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash,
			hclsyntax.TokenPercent, hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenBang,
			hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq,
			hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq, hclsyntax.TokenQuestion, hclsyntax.TokenEllipsis:
			if ops++; ops > MaxOperators {
				return none, limitDiag(t.Range, "Expression too large",
					"an expression holds at most %d operators in a testbed (split it into locals)", MaxOperators)
			}
		}
	}
	return prescanCounts{tokens: len(toks), blocks: blocks}, nil
}

// PrescanJSON checks a JSON var file's nesting (brackets outside strings)
// against MaxNesting.
func PrescanJSON(src []byte, filename string) hcl.Diagnostics {
	if len(src) > MaxSourceSize {
		pos := hcl.InitialPos
		return limitDiag(hcl.Range{Filename: filename, Start: pos, End: pos}, "File too large",
			"a variables file holds at most %d bytes, this one %d", MaxSourceSize, len(src))
	}
	depth, inString, escaped := 0, false, false
	line := 1
	for _, c := range src {
		switch {
		case c == '\n':
			line++
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > MaxNesting {
				pos := hcl.Pos{Line: line, Column: 1}
				return limitDiag(hcl.Range{Filename: filename, Start: pos, End: pos}, "Nesting too deep",
					"brackets nest at most %d deep in a variables file", MaxNesting)
			}
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

func limitDiag(rng hcl.Range, summary, format string, a ...any) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, a...), Subject: rng.Ptr()}}
}

// prescanTemplates refuses a string or heredoc whose lines times bytes
// exceed MaxTemplateCost.
func prescanTemplates(toks hclsyntax.Tokens) hcl.Diagnostics {
	var open []int // indexes of the open quotes and heredocs
	parts, size := 0, 0
	for i, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			open = append(open, i)
			parts, size = 0, 0
		case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case hclsyntax.TokenStringLit, hclsyntax.TokenQuotedLit:
			if len(open) == 0 {
				continue
			}
			parts, size = parts+1, size+len(t.Bytes)
			if parts*size > MaxTemplateCost {
				return limitDiag(toks[open[len(open)-1]].Range, "String too large",
					"a string or heredoc of %d lines and %d bytes or more is too large to parse; put long text in a template file", parts, size)
			}
		}
	}
	return nil
}
