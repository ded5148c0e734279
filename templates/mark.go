package templates

import (
	"regexp"
	"strconv"
	"strings"
)

// Line markers let a rendered line name the template line that produced it:
// before parsing, every template line that starts outside an action gets an
// invisible marker; after execution the markers are read and stripped. Lines
// whose whitespace trimming ({{- or -}}) a marker would change get none.
const (
	markOpen  = "\x1e"
	markClose = "\x1f"
)

func marker(line int) string { return markOpen + strconv.Itoa(line) + markClose }

// markLines returns text with markers and the set of marked lines.
func markLines(text string) (string, map[int]bool) {
	lines := strings.Split(text, "\n")
	marked := map[int]bool{}
	inAction, prevTrims := false, false
	for i, l := range lines {
		if !inAction && !prevTrims && !strings.HasPrefix(strings.TrimLeft(l, " \t"), "{{-") {
			lines[i] = marker(i+1) + l
			marked[i+1] = true
		}
		inAction = endsInAction(l, inAction)
		prevTrims = strings.HasSuffix(strings.TrimRight(l, " \t\r"), "-}}")
	}
	return strings.Join(lines, "\n"), marked
}

// endsInAction reports whether an action is still open at the end of l.
func endsInAction(l string, in bool) bool {
	for {
		if in {
			i := strings.Index(l, "}}")
			if i < 0 {
				return true
			}
			l, in = l[i+2:], false
			continue
		}
		i := strings.Index(l, "{{")
		if i < 0 {
			return false
		}
		l, in = l[i+2:], true
	}
}

// unmark strips the markers of rendered text and returns, for each output
// line (0-based), the template line that produced it.
func unmark(out string) (string, []int) {
	lines := strings.Split(out, "\n")
	src := make([]int, len(lines))
	last := 0
	for i, l := range lines {
		clean, n := stripMarkers(l)
		if n == 0 {
			n = last
		}
		lines[i], src[i], last = clean, n, n
	}
	return strings.Join(lines, "\n"), src
}

// stripMarkers removes the markers of one line and returns the line of the
// last marker before its first other character (or of the first marker).
func stripMarkers(l string) (string, int) {
	var b strings.Builder
	n, lead := 0, true
	for {
		i := strings.Index(l, markOpen)
		if i < 0 {
			b.WriteString(l)
			return b.String(), n
		}
		j := strings.Index(l[i:], markClose)
		if j < 0 {
			b.WriteString(l)
			return b.String(), n
		}
		if i > 0 {
			lead = false
		}
		b.WriteString(l[:i])
		if v, err := strconv.Atoi(l[i+len(markOpen) : i+j]); err == nil && (lead || n == 0) {
			n = v
		}
		l = l[i+j+len(markClose):]
	}
}

var errPos = regexp.MustCompile(`:(\d+):(\d+):`)

// fixColumns corrects the columns text/template reports on marked lines.
func fixColumns(msg string, marked map[int]bool) string {
	return errPos.ReplaceAllStringFunc(msg, func(m string) string {
		p := errPos.FindStringSubmatch(m)
		line, _ := strconv.Atoi(p[1])
		col, _ := strconv.Atoi(p[2])
		if marked[line] && col > len(marker(line)) {
			col -= len(marker(line))
		}
		return ":" + p[1] + ":" + strconv.Itoa(col) + ":"
	})
}
