package outparse

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// pathStep is one step of a JSON path: a key (after a dot, but for the
// first) or an index in brackets, a number or "*".
var pathStep = regexp.MustCompile(`^(?:\.?([^.\[\]]+)|\[(\*|[0-9]+)\])`)

// splitPath splits "a.b[0].c[*]" into its steps: "a", "b", "[0]", "c",
// "[*]".
func splitPath(p string) ([]string, error) {
	var steps []string
	for rest := p; rest != ""; {
		m := pathStep.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("bad path %q at %q", p, rest)
		}
		if m[1] != "" {
			steps = append(steps, m[1])
		} else {
			steps = append(steps, "["+m[2]+"]")
		}
		rest = rest[len(m[0]):]
	}
	if len(steps) == 0 {
		return nil, errors.New("empty path")
	}
	return steps, nil
}

// walk follows steps from v to a number; [*] sums what follows over every
// element of an array.
func walk(v any, steps []string) (float64, error) {
	if len(steps) == 0 {
		switch x := v.(type) {
		case float64:
			return x, nil
		case string:
			return strconv.ParseFloat(x, 64)
		}
		return 0, errors.New("not a number")
	}
	s := steps[0]
	if !strings.HasPrefix(s, "[") {
		obj, ok := v.(map[string]any)
		if !ok || obj[s] == nil {
			return 0, fmt.Errorf("no key %q", s)
		}
		return walk(obj[s], steps[1:])
	}
	arr, ok := v.([]any)
	if !ok {
		return 0, fmt.Errorf("%s: not an array", s)
	}
	if s == "[*]" {
		var sum float64
		for _, e := range arr {
			x, err := walk(e, steps[1:])
			if err != nil {
				return 0, err
			}
			sum += x
		}
		return sum, nil
	}
	i, _ := strconv.Atoi(s[1 : len(s)-1])
	if i >= len(arr) {
		return 0, fmt.Errorf("%s: the array has %d elements", s, len(arr))
	}
	return walk(arr[i], steps[1:])
}
