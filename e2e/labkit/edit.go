package labkit

import (
	"fmt"
	"regexp"
)

// Edit applies edits to s in order, each a regular expression and its
// replacement; an edit that matches nothing is an error (the file it was
// written for has changed, and the test's edit with it must).
func Edit(s string, edits [][2]string) (string, error) {
	for _, e := range edits {
		re := regexp.MustCompile(e[0])
		if !re.MatchString(s) {
			return "", fmt.Errorf("no match for %s: the test's edit needs updating", e[0])
		}
		s = re.ReplaceAllString(s, e[1])
	}
	return s, nil
}
