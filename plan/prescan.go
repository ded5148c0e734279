package plan

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
const (
	MaxNesting    = 64
	MaxOperators  = 10000
	MaxForNesting = 1
)

// prescan checks src (HCL native syntax, a whole file when expr is false,
// one expression when true) against MaxNesting and MaxOperators, with the
// lexer only: it does not recurse. It returns the first problem found.
func prescan(src []byte, filename string, expr bool) hcl.Diagnostics {
	var toks hclsyntax.Tokens
	if expr {
		toks, _ = hclsyntax.LexExpression(src, filename, hcl.InitialPos)
	} else {
		toks, _ = hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	}
	depth, ops := 0, 0
	var fors []bool // per open bracket: it opens a for expression
	forDepth := 0
	for i, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenOQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			if depth++; depth > MaxNesting {
				return limitDiag(t.Range, "Nesting too deep",
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
					return limitDiag(t.Range, "For expressions nested too deep",
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
				return limitDiag(t.Range, "Expression too large",
					"an expression holds at most %d operators in a testbed (split it into locals)", MaxOperators)
			}
		}
	}
	return nil
}

// prescanJSON checks a JSON var file's nesting (brackets outside strings)
// against MaxNesting.
func prescanJSON(src []byte, filename string) hcl.Diagnostics {
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
