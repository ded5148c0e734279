package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// FieldError is a problem with one field of a scenario, by its path in the
// JSON object ("user_count", "sizes[1].size_min", "initial_files.tiny"), so
// that it can be shown at its line in the scenario file.
type FieldError struct {
	Path []any // object keys (string) and array indexes (int); empty: the whole scenario
	Msg  string
}

// Error is "scenario: <msg>", as every scenario error reads.
func (e *FieldError) Error() string { return "scenario: " + e.Msg }

// Field renders the path as "sizes[1].size_min".
func (e *FieldError) Field() string {
	var b strings.Builder
	for _, p := range e.Path {
		switch p := p.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(p) + "]")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, p)
		}
	}
	return b.String()
}

// Position returns the 1-based line and column of the field's key in data
// (of its closest enclosing field that data has; 1,1 for the scenario).
func (e *FieldError) Position(data []byte) (int, int) {
	off := keyOffset(data, e.Path)
	return position(data, off)
}

// frame is one open JSON object or array while walking tokens.
type frame struct {
	obj     bool
	key     any // the current key (object) or index (array)
	wantKey bool
	index   int
}

// keyOffset finds where path's key (or element) starts in data: the offset
// of the deepest prefix of path that data holds.
func keyOffset(data []byte, path []any) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []*frame
	best, bestDepth := int64(bytes.IndexByte(data, '{')), 0
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return skipSpace(data, max(best, 0))
		}
		if n := len(stack); n > 0 && !stack[n-1].obj {
			f := stack[n-1]
			if d, ok := tok.(json.Delim); !ok || d != ']' {
				f.key = f.index
				f.index++
				best, bestDepth = match(stack, path, before, best, bestDepth)
			}
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].wantKey = k, false
				best, bestDepth = match(stack, path, before, best, bestDepth)
				continue
			}
		}
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].wantKey = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].wantKey = true
			}
		}
	}
}

// match records off when the open frames' keys are a longer prefix of path
// than the best so far.
func match(stack []*frame, path []any, off, best int64, depth int) (int64, int) {
	if len(stack) > len(path) || len(stack) <= depth {
		return best, depth
	}
	for i, f := range stack {
		if f.key != path[i] {
			return best, depth
		}
	}
	return off, len(stack)
}

// skipSpace moves off past whitespace, commas and colons: the decoder's
// offset before a token sits after the previous one, maybe a line above.
func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
		off++
	}
	return off
}
