package lang

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// maxFuncBytes bounds the text one call of format, formatlist, indent or
// replace may build: these can make a string far longer than their
// arguments (format("%999999999s", x)), so they are checked before they
// run.
const maxFuncBytes = MaxValueNodes * MaxStringChunk

// formatWidth finds the widths and precisions of a format's verbs.
var formatWidth = regexp.MustCompile(`%[-+# 0]*(\d*)(?:\.(\d+))?`)

// boundedFuncs are the functions of funcs that can amplify their input,
// wrapped with a check of their result's size.
func boundedFuncs() map[string]function.Function {
	return map[string]function.Function{
		"format":     bounded(stdlib.FormatFunc, formatBytes),
		"formatlist": bounded(stdlib.FormatListFunc, formatBytes),
		"indent":     bounded(stdlib.IndentFunc, indentBytes),
		"replace":    bounded(stdlib.ReplaceFunc, replaceBytes),
	}
}

// bounded returns f refused when estimate says its result would exceed
// maxFuncBytes. estimate sees the unmarked arguments, known and not null.
func bounded(f function.Function, estimate func(args []cty.Value) int) function.Function {
	return function.New(&function.Spec{
		Params:   f.Params(),
		VarParam: f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnType(argTypes(args))
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			plain := make([]cty.Value, len(args))
			for i, a := range args {
				plain[i], _ = a.UnmarkDeep()
				if !plain[i].IsWhollyKnown() || plain[i].IsNull() {
					return f.Call(args)
				}
			}
			if n := estimate(plain); n > maxFuncBytes {
				return cty.NilVal, fmt.Errorf("the result would hold more than %d bytes", maxFuncBytes)
			}
			return f.Call(args)
		},
	})
}

// formatBytes: the format's widths and precisions, plus its arguments.
func formatBytes(args []cty.Value) int {
	if len(args) == 0 || args[0].Type() != cty.String {
		return 0
	}
	n := len(args[0].AsString())
	for _, m := range formatWidth.FindAllStringSubmatch(args[0].AsString(), -1) {
		for _, num := range m[1:] {
			w, err := strconv.Atoi(num)
			if num != "" && (err != nil || w > maxFuncBytes) {
				return maxFuncBytes + 1
			}
			n += w
		}
	}
	for _, a := range args[1:] {
		n += textBytes(a)
	}
	return n
}

// indentBytes: spaces times lines, plus the text.
func indentBytes(args []cty.Value) int {
	if len(args) != 2 || args[0].Type() != cty.Number || args[1].Type() != cty.String {
		return 0
	}
	spaces, acc := args[0].AsBigFloat().Int64()
	if acc != 0 || spaces > maxFuncBytes {
		return maxFuncBytes + 1
	}
	s := args[1].AsString()
	return len(s) + int(spaces)*(strings.Count(s, "\n")+1)
}

// replaceBytes: every possible match replaced by the replacement.
func replaceBytes(args []cty.Value) int {
	if len(args) != 3 {
		return 0
	}
	s, sub, repl := textBytes(args[0]), textBytes(args[1]), textBytes(args[2])
	matches := s + 1 // a regular expression may match anywhere
	if sub > 0 && args[1].Type() == cty.String && !strings.HasPrefix(args[1].AsString(), "/") {
		matches = strings.Count(args[0].AsString(), args[1].AsString())
	}
	if repl > 0 && matches > maxFuncBytes/repl {
		return maxFuncBytes + 1
	}
	return s + matches*repl
}

// textBytes is the length of a string, or of a value's strings in all.
func textBytes(v cty.Value) int {
	if v.Type() == cty.String {
		return len(v.AsString())
	}
	if v.CanIterateElements() {
		n := 0
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			n += textBytes(e)
		}
		return n
	}
	return 8
}
