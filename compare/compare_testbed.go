package compare

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"benchbed/rundir"
	"benchbed/templates"
)

// maxTestbedLines bounds the changed lines shown of two testbeds.
const maxTestbedLines = 60

// testbedDiff returns the changed lines of two runs' testbed.hcl, masked;
// nil when they are the same or neither run kept one.
func testbedDiff(dirA, dirB string) ([]string, error) {
	a, errA := os.ReadFile(filepath.Join(dirA, rundir.TestbedFile))
	b, errB := os.ReadFile(filepath.Join(dirB, rundir.TestbedFile))
	for _, err := range []error{errA, errB} {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	switch {
	case errA != nil && errB != nil:
		return nil, nil
	case errA != nil || errB != nil:
		return nil, fmt.Errorf("only one run kept its %s (%v)", rundir.TestbedFile, errors.Join(errA, errB))
	case string(a) == string(b):
		return nil, nil
	}
	lines := changedLines(templates.Unified("A", "B", MaskHCL(string(a)), MaskHCL(string(b))))
	if len(lines) == 0 {
		return []string{"# only masked values differ"}, nil
	}
	if n := len(lines); n > maxTestbedLines {
		lines = append(lines[:maxTestbedLines], fmt.Sprintf("# ... %d more changed lines", n-maxTestbedLines))
	}
	return lines, nil
}

var (
	hclVariable  = regexp.MustCompile(`^\s*variable\s+"[^"]*"\s*\{`)
	hclSensitive = regexp.MustCompile(`^\s*sensitive\s*=\s*true\b`)
	hclDefault   = regexp.MustCompile(`^\s*default\s*=`)
	hclSecretKey = regexp.MustCompile(`(?i)^\s*"?[a-z0-9_.-]*(key|password|passwd|secret|token)"?\s*[=:]`)
	hclString    = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
)

// MaskHCL masks the secrets a testbed file may hold, line by line: the
// default of a variable marked sensitive (and that value wherever else it
// appears) and the string literals of keys named like a secret (key,
// password, secret, token). References such as var.auth_key stay.
func MaskHCL(text string) string {
	lines := strings.Split(text, "\n")
	var secrets []string
	for i := 0; i < len(lines); i++ {
		if !hclVariable.MatchString(lines[i]) {
			continue
		}
		end := blockEnd(lines, i)
		if !anyMatch(hclSensitive, lines[i:end+1]) {
			i = end
			continue
		}
		for j := i; j <= end; j++ {
			if hclDefault.MatchString(lines[j]) {
				for _, s := range hclString.FindAllString(lines[j], -1) {
					if len(s) > 4 {
						secrets = append(secrets, s[1:len(s)-1])
					}
				}
				lines[j] = maskStrings(lines[j])
			}
		}
		i = end
	}
	for i, l := range lines {
		if hclSecretKey.MatchString(l) {
			lines[i] = maskStrings(l)
		}
	}
	out := strings.Join(lines, "\n")
	for _, s := range secrets {
		out = strings.ReplaceAll(out, s, "****")
	}
	return out
}

func maskStrings(l string) string { return hclString.ReplaceAllString(l, `"****"`) }

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
