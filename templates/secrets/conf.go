package secrets

import (
	"regexp"
	"strings"
)

var (
	confSection = regexp.MustCompile(`^\s*\[([^\]]*)\]\s*$`)
	confEntry   = regexp.MustCompile(`^(\s*([^\s=:#;\[][^=:]*?)\s*[=:]\s*)(\S.*?)\s*$`)
)

// Conf returns the text of a conf file in any format (INI, key: value,
// key = value) for printing: the value of every line "key = value" or
// "key: value" whose key names a secret (Key, with the section of the
// last "[section]" line) reads Masked, then every value of s and every
// token is masked. Lines of other forms are left to the values of s.
func (s *Set) Conf(text string) string {
	lines := strings.Split(text, "\n")
	section := ""
	for i, l := range lines {
		if m := confSection.FindStringSubmatch(l); m != nil {
			section = strings.TrimSpace(m[1])
			continue
		}
		m := confEntry.FindStringSubmatch(l)
		if m == nil || !Key(section, strings.TrimSpace(m[2])) {
			continue
		}
		lines[i] = m[1] + Masked
	}
	return s.Mask(strings.Join(lines, "\n"))
}
