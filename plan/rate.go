package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultMaxError, the default error gate, is the share of failed operations above which a cell
// (or a `benchbed load`) fails when nothing else is said: 1 %.
const DefaultMaxError = 0.01

// ParseRate reads an error rate written as a share ("0.01") or as a
// percentage ("1%"); it must lie in [0, 1].
func ParseRate(v string) (float64, error) {
	s, pct := strings.CutSuffix(strings.TrimSpace(v), "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is no rate: write a share (0.01) or a percentage (1%%)", v)
	}
	if pct {
		x /= 100
	}
	if x < 0 || x > 1 || x != x {
		return 0, fmt.Errorf("%q: a rate lies between 0 and 1 (0%% and 100%%)", v)
	}
	return x, nil
}
