package plan

import (
	"strconv"
	"strings"
)

// SpanNames writes device names the short way, for the messages and diffs
// of ring layouts: "d0..d31" when names (more than two) are a run of one
// prefix and consecutive numbers, else the names joined with commas.
func SpanNames(names []string) string {
	if len(names) > 2 {
		p0, n0 := cutNumber(names[0])
		run := n0 >= 0
		for i := 1; run && i < len(names); i++ {
			p, n := cutNumber(names[i])
			run = p == p0 && n == n0+i
		}
		if run {
			return names[0] + ".." + names[len(names)-1]
		}
	}
	return strings.Join(names, ",")
}

// cutNumber splits the decimal number that ends s from its prefix; -1 when
// s ends with none.
func cutNumber(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil {
		return s, -1
	}
	return s[:i], n
}

// SpanNums writes port numbers the short way: it gives "6200" when all numbers are equal, "6210..6213" for
// consecutive numbers, else all of them joined with commas.
func SpanNums(ns []int) string {
	same, run := true, true
	for i := 1; i < len(ns); i++ {
		same = same && ns[i] == ns[0]
		run = run && ns[i] == ns[i-1]+1
	}
	switch {
	case len(ns) == 0:
		return ""
	case same:
		return strconv.Itoa(ns[0])
	case run:
		return strconv.Itoa(ns[0]) + ".." + strconv.Itoa(ns[len(ns)-1])
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
