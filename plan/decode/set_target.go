package decode

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// knownSetTarget reports whether the service a variant's set block names
// is one of the testbed's (decoded before the variants). Otherwise it
// says so at the block's label, with the nearest service name and the list
// of them.
func (d *decoder) knownSetTarget(blk *hcl.Block) bool {
	target := blk.Labels[0]
	if d.tb.Service(target) != nil || d.tb.Generic(target) != nil {
		return true
	}
	var names []string
	for _, s := range d.tb.Services {
		names = append(names, fmt.Sprintf("%q", s.Name))
	}
	for _, g := range d.tb.Generics {
		names = append(names, fmt.Sprintf("%q", g.Name))
	}
	detail := fmt.Sprintf("no service is named %q", target)
	if near := nearestService(target, names); near != "" {
		detail += fmt.Sprintf(": did you mean %s?", near)
	}
	if len(names) > 0 {
		detail += " The services: " + strings.Join(names, ", ") + "."
	}
	d.Errorf(blk.LabelRanges[0].Ptr(), "Variant sets an unknown service", "%s", detail)
	return false
}

// nearestService is the quoted name of names nearest to name, if it is
// within a third of name's length (at least 2 edits).
func nearestService(name string, names []string) string {
	best, bestD := "", max(2, len(name)/3)+1
	for _, q := range names {
		if dist := serviceNameDistance(name, strings.Trim(q, `"`)); dist < bestD {
			best, bestD = q, dist
		}
	}
	return best
}

// serviceNameDistance is the Levenshtein distance of a and b, in bytes.
func serviceNameDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
