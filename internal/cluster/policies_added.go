package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/templates"
)

// PoliciesAdded returns a problem for every storage policy of the testbed
// (index above 0: policy 0 always exists) that a host's swift.conf as it
// is (live; name names it) lacks. The sweep refuses to add a policy: its
// restore puts the host's swift.conf back, and the containers its cells
// and prefill created in the added policy would be left in a policy Swift
// no longer knows (every request to them fails, the replicators complain).
// Setup adds policies for good; so a sweep runs on a cluster set up with
// its testbed's policies, and restoring swift.conf keeps them.
func PoliciesAdded(tb *plan.Testbed, name string, live []byte) ([]string, error) {
	have := map[int]bool{0: true}
	if len(live) > 0 {
		f, err := templates.Parse(name, live)
		if err != nil {
			return nil, err
		}
		for _, s := range f.Sections {
			if idx, ok := strings.CutPrefix(s.Name, "storage-policy:"); ok {
				if i, err := strconv.Atoi(idx); err == nil {
					have[i] = true
				}
			}
		}
	}
	var out []string
	for _, p := range tb.StoragePolicies() {
		if !have[p.Index] {
			out = append(out, fmt.Sprintf("%s has no storage policy %d (%s): the sweep does not add policies, since restoring swift.conf would leave the containers it creates there in a policy Swift no longer knows; run benchbed setup first, which adds it for good",
				name, p.Index, p.Name))
		}
	}
	return out, nil
}

// SweepPolicies is CheckPolicies with PoliciesAdded on every service host:
// the storage policies' part of the sweep's preflight.
func SweepPolicies(ctx context.Context, p Runner, tb *plan.Testbed) error {
	if err := CheckPolicies(ctx, p, tb); err != nil {
		return err
	}
	return checkSwiftConfs(ctx, p, tb, PoliciesAdded)
}
