package templates

import (
	"fmt"
	"strings"
)

// Parse reads an INI file the way Swift's config parser does: [sections],
// "key = value" or "key: value", comment lines starting with # or ;, values
// continued on indented lines, no inline comments. A key repeated in a
// section keeps its first place and its last value. Every entry's Source is
// name:line with layer "file".
func Parse(name string, data []byte) (*File, error) {
	p := &parser{f: &File{Name: name}, name: name, layer: "file"}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if err := p.line(i+1, strings.TrimRight(line, "\r")); err != nil {
			return nil, err
		}
	}
	p.finish()
	return p.f, nil
}

// parser holds the state of one Parse.
type parser struct {
	f       *File
	name    string
	layer   string
	lineOf  func(int) (string, int) // maps an output line to its source; nil = identity
	sec     *Section
	last    *Entry
	pending []string
}

func (p *parser) source(n int) Source {
	if p.lineOf != nil {
		file, line := p.lineOf(n)
		return Source{Layer: p.layer, File: file, Line: line}
	}
	return Source{Layer: p.layer, File: p.name, Line: n}
}

func (p *parser) line(n int, line string) error {
	trimmed := strings.TrimSpace(line)
	switch {
	case trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';':
		p.pending = append(p.pending, trimmed)
		if trimmed == "" {
			p.last = nil // a blank line ends a continued value
		}
		return nil
	case line[0] == ' ' || line[0] == '\t':
		if p.last == nil {
			return p.errorf(n, "indented line %q continues no value", trimmed)
		}
		p.last.Value += "\n" + trimmed
		return nil
	case trimmed[0] == '[':
		return p.header(n, trimmed)
	}
	return p.entry(n, trimmed)
}

func (p *parser) header(n int, line string) error {
	end := strings.IndexByte(line, ']')
	if end < 0 || strings.TrimSpace(line[end+1:]) != "" && !isComment(line[end+1:]) {
		return p.errorf(n, "malformed section header %q", line)
	}
	name := strings.TrimSpace(line[1:end])
	if name == "" {
		return p.errorf(n, "empty section name")
	}
	if p.sec == nil {
		p.f.Head = append(p.f.Head, p.pending...)
		p.pending = nil
	}
	p.sec = p.f.Section(name)
	if p.sec == nil {
		p.sec = &Section{Name: name, Line: n, Comments: p.pending}
		p.f.Sections = append(p.f.Sections, p.sec)
	}
	p.pending, p.last = nil, nil
	return nil
}

func (p *parser) entry(n int, line string) error {
	if p.sec == nil {
		return p.errorf(n, "%q comes before any [section]", line)
	}
	i := strings.IndexAny(line, "=:")
	if i <= 0 {
		return p.errorf(n, "expected \"key = value\", got %q", line)
	}
	key := strings.TrimSpace(line[:i])
	v := Value{Value: strings.TrimSpace(line[i+1:]), Source: p.source(n)}
	if old := p.sec.Set(key, v); old == nil {
		p.last = p.sec.Entries[len(p.sec.Entries)-1]
		p.last.Comments = p.pending
	} else {
		p.last = p.sec.Get(key)
		p.last.Comments = append(p.last.Comments, p.pending...)
	}
	p.pending = nil
	return nil
}

// finish keeps trailing comments at the end of the file.
func (p *parser) finish() {
	if p.sec == nil {
		p.f.Head = append(p.f.Head, p.pending...)
	} else {
		p.f.Tail = p.pending
	}
	p.pending = nil
}

func (p *parser) errorf(n int, format string, args ...any) error {
	s := p.source(n)
	return fmt.Errorf("%s:%d: %s", s.File, s.Line, fmt.Sprintf(format, args...))
}

func isComment(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && (s[0] == '#' || s[0] == ';')
}
