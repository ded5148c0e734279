package secrets

import (
	"regexp"
	"strings"
)

// lineKey is a key followed by = or : anywhere in a line (a conf entry,
// grep's "file:key = value", a diff's "-key = value", JSON's "key": value).
var lineKey = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.-]*)"?\s*[=:]`)

// Lines masks text that arrives a line at a time and is not known to be a
// conf: a host command's live output. It tracks the section of the last
// "[section]" line, so that Key's section rules hold across lines; give
// each stream (a command's stdout, its stderr) a Lines of its own, since
// the lines of several streams interleave.
type Lines struct {
	set     *Set
	section string
}

// Lines returns a masker of one stream with s's values, each line of a
// multi-line value among them (a stream is masked a line at a time).
func (s *Set) Lines() *Lines {
	if s == nil {
		return &Lines{set: New()}
	}
	values := s.values
	for _, v := range s.values {
		if strings.Contains(v, "\n") {
			values = append(values, strings.Split(v, "\n")...)
		}
	}
	return &Lines{set: New(values...)}
}

// Line returns line (without its newline) as it may be printed: from the
// first key naming a secret (Key, with the current section) followed by
// = or : and a value, the rest of the line reads Masked; then every value of the Set
// and every token is masked. A "[section]" line sets the section of the
// lines after it.
func (l *Lines) Line(line string) string {
	if m := confSection.FindStringSubmatch(line); m != nil {
		l.section = strings.TrimSpace(m[1])
		return l.set.Mask(line)
	}
	for _, m := range lineKey.FindAllStringSubmatchIndex(line, -1) {
		if value := strings.TrimLeft(line[m[1]:], " \t"); value != "" && Key(l.section, line[m[2]:m[3]]) {
			line = line[:len(line)-len(value)] + Masked
			break
		}
	}
	return l.set.Mask(line)
}
