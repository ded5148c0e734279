package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// ParseFile reads and parses an ssbench scenario file. Its errors
// name the file, and the line and column of a JSON syntax error.
func ParseFile(path string) (*Scenario, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
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

// maxFileSize bounds a scenario file (as templates.ReadBounded does the
// testbed's other inputs; this package imports only the standard library).
const maxFileSize = 16 << 20

// readBounded reads the regular file p of at most maxFileSize bytes, so
// that /dev/zero or a FIFO is an error and not a read that never ends.
func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxFileSize {
		return nil, &os.PathError{Op: "read", Path: p, Err: errors.New("not a regular file of at most 16 MiB")}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err == nil && len(b) > maxFileSize {
		err = &os.PathError{Op: "read", Path: p, Err: errors.New("not a regular file of at most 16 MiB")}
	}
	return b, err
}
