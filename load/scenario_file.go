package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// ParseScenarioFile reads and parses an ssbench scenario file. Its errors
// name the file, and the line and column of a JSON syntax error.
func ParseScenarioFile(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseScenario(data)
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
	return nil, fmt.Errorf("%s: %w", path, err)
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
