package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ParseFile parses data, the contents of the ssbench scenario file path
// (which its caller reads, bounded, with templates.ReadBounded: this
// package imports only the standard library). Its errors name the file,
// and the line and column of a JSON syntax error.
func ParseFile(path string, data []byte) (*Scenario, error) {
	s, err := Parse(data)
	if err == nil {
		return s, nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset-1) // Offset is just after the bad byte
		return nil, fmt.Errorf("%s:%d,%d: %w", path, line, col, err)
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset)
		return nil, fmt.Errorf("%s:%d,%d: %w", path, line, col, err)
	}
	return nil, atLines(path, data, err)
}

// atLines prefixes each of err's problems with the file, and a field's
// with its line and column: "FILE:LINE,COL: scenario: ...".
func atLines(path string, data []byte, err error) error {
	var errs []error
	for _, e := range Unjoin(err) {
		var fe *FieldError
		if errors.As(e, &fe) {
			line, col := fe.Position(data)
			errs = append(errs, fmt.Errorf("%s:%d,%d: %w", path, line, col, e))
		} else {
			errs = append(errs, fmt.Errorf("%s: %w", path, e))
		}
	}
	return errors.Join(errs...)
}

// Unjoin returns the errors errors.Join joined in err, however nested, or
// err alone.
func Unjoin(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, Unjoin(e)...)
	}
	return out
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
