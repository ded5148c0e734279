package outparse

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Output is what one copy of a command printed: the head of its stdout and
// the tail of its stderr (remote.Result's limits).
type Output struct {
	Stdout []byte
	Stderr []byte
}

// Parser turns one copy's output into figures; an output without the
// figures it expects is an error that says what was missing.
type Parser interface {
	Parse(out Output) (Figures, error)
}

// ParserFunc adapts a function to Parser.
type ParserFunc func(out Output) (Figures, error)

// Parse calls f.
func (f ParserFunc) Parse(out Output) (Figures, error) { return f(out) }

var builtins = map[string]Parser{
	"wget":   ParserFunc(parseWget),
	"curl":   ParserFunc(parseCurl),
	"iperf3": ParserFunc(parseIperf3),
	"fio":    ParserFunc(parseFio),
	"iozone": ParserFunc(parseIozone),
}

// BuiltinNames lists the built-in parsers' names, sorted.
func BuiltinNames() []string { return slices.Sorted(maps.Keys(builtins)) }

// Builtin returns the built-in parser called name.
func Builtin(name string) (Parser, error) {
	p, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("unknown parser %q: built-in ones are %s", name, strings.Join(BuiltinNames(), ", "))
	}
	return p, nil
}

// text is a copy's whole output as one string: stdout, then stderr (wget
// and iozone -t write their figures to stderr or mix them).
func (o Output) text() string {
	return string(o.Stdout) + "\n" + string(o.Stderr)
}
