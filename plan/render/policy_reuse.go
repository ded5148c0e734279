package render

import (
	"fmt"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/templates"
)

// PolicyConflicts compares the testbed's storage policies with a host's
// swift.conf as it is (live, the text of /etc/swift/swift.conf; name
// names it in messages) and returns a problem for every index the host
// already uses with another policy_type, or for a policy the host has
// that the testbed drops: data in such a policy would be unreadable
// (Swift never changes a policy's type, and a container keeps its policy
// for good). Preflight runs it on every host before setup rewrites
// swift.conf; nil means no conflict.
func PolicyConflicts(tb *plan.Testbed, name string, live []byte) ([]string, error) {
	f, err := templates.Parse(name, live)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range f.Sections {
		idx, ok := strings.CutPrefix(s.Name, "storage-policy:")
		if !ok {
			continue
		}
		i, err := strconv.Atoi(idx)
		if err != nil {
			continue
		}
		have, _ := f.Value(s.Name, "policy_type")
		if have == "" {
			have = plan.PolicyReplication
		}
		liveName, _ := f.Value(s.Name, "name")
		p := tb.PolicyByIndex(i)
		switch {
		case p == nil:
			out = append(out, fmt.Sprintf("%s: policy %d (%s, %s) is not in the testbed: objects stored in it would become unreadable", name, i, liveName, have))
		case p.Type != have:
			out = append(out, fmt.Sprintf("%s: policy %d is %s (%s) there, and the testbed makes it %s (%s): Swift cannot change a policy's type; give the testbed's policy another index", name, i, have, liveName, p.Type, p.Name))
		}
	}
	return out, nil
}
