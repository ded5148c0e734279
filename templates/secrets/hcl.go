package secrets

import (
	"regexp"
	"strings"
)

var (
	hclVariable  = regexp.MustCompile(`^\s*variable\s+"[^"]*"\s*\{`)
	hclSensitive = regexp.MustCompile(`^\s*sensitive\s*=\s*true\b`)
	hclDefault   = regexp.MustCompile(`^\s*default\s*=`)
	hclKey       = regexp.MustCompile(`^\s*"?([A-Za-z0-9_.:-]+)"?\s*[=:]`)
	hclString    = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
)

// HCL masks the secrets a testbed file may hold, line by line, without
// decoding it (a stored run's testbed.hcl may not decode today): the
// default of a variable marked sensitive, that value wherever else it
// appears, the string literals of attributes whose name is a secret's
// (Key), and tokens. References such as var.auth_key stay.
func HCL(text string) string {
	lines := strings.Split(text, "\n")
	var values []string
	for i := 0; i < len(lines); i++ {
		if !hclVariable.MatchString(lines[i]) {
			continue
		}
		end := blockEnd(lines, i)
		if anyMatch(hclSensitive, lines[i:end+1]) {
			values = append(values, maskDefaults(lines[i:end+1])...)
		}
		i = end
	}
	for i, l := range lines {
		if m := hclKey.FindStringSubmatch(l); m != nil && Key("", m[1]) {
			lines[i] = maskStrings(l)
		}
	}
	var unquoted []string
	for _, v := range values {
		unquoted = append(unquoted, v[1:len(v)-1])
	}
	return New(unquoted...).Mask(strings.Join(lines, "\n"))
}

// maskDefaults masks the string literals of the default lines of a
// variable block in place and returns them as they were.
func maskDefaults(block []string) []string {
	var values []string
	for j, l := range block {
		if hclDefault.MatchString(l) {
			values = append(values, hclString.FindAllString(l, -1)...)
			block[j] = maskStrings(l)
		}
	}
	return values
}

func maskStrings(l string) string { return hclString.ReplaceAllString(l, `"`+Masked+`"`) }

func anyMatch(re *regexp.Regexp, lines []string) bool {
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// blockEnd returns the line where the block opened on line i closes (by
// counting braces), or the last line.
func blockEnd(lines []string, i int) int {
	depth := 0
	for j := i; j < len(lines); j++ {
		depth += strings.Count(lines[j], "{") - strings.Count(lines[j], "}")
		if depth <= 0 && j > i || depth == 0 && strings.Contains(lines[j], "}") {
			return j
		}
	}
	return len(lines) - 1
}
