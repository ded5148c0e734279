package orchestrate

import (
	"context"
	"fmt"
	"path"
	"strings"

	"benchbed/plan"
)

// partitionsScript prints a hash of a ring file's partition assignment
// (replica -> partition -> device id), with Swift's own RingData.
func partitionsScript(ringFile string) string {
	return fmt.Sprintf(`/usr/bin/python3 - %s <<'PY'
import hashlib, sys
from swift.common.ring import RingData
r = RingData.load(sys.argv[1])
h = hashlib.sha256()
for row in r._replica2part2dev_id:
    h.update(row.tobytes())
print(h.hexdigest())
PY`, shellQuote(ringFile))
}

// switchRings brings every ring's device ports to variant v's layout on
// the builder host without a rebalance (set_info --change-port and
// --change-replication-port, then write_ring), confirms that the partition
// assignment is unchanged, distributes the ring files, and marks the
// ring's servers for restart. A ring that differs in more than ports is
// refused: that is setup's work.
func (s *Sweeper) switchRings(ctx context.Context, v *plan.Variant, rs *restarts) error {
	b, err := BuilderHost(s.tb)
	if err != nil {
		return err
	}
	states, err := s.dumpRings(ctx, b.Name)
	if err != nil {
		return fmt.Errorf("rings on %s: %w", b.Name, err)
	}
	switched := false
	for i, r := range s.tb.Rings {
		did, err := s.switchRing(ctx, b.Name, r, v, states[i])
		if err != nil {
			return fmt.Errorf("ring %s on %s: %w", r.Name, b.Name, err)
		}
		if !did {
			continue
		}
		switched = true
		for _, h := range s.tb.HostsWithRole(r.Role) {
			for _, svc := range hostServices(s.tb, h) {
				if svc.Role == r.Role {
					rs.add(h.Name, svc.Name)
				}
			}
		}
	}
	if !switched {
		return nil
	}
	rep := NewReport(names(s.tb.Hosts))
	err = DistributeRings(ctx, s.p, s.tb, b, rep)
	s.logChanges(rep)
	return err
}

// dumpRings reads every ring's builder in one command (one line each).
func (s *Sweeper) dumpRings(ctx context.Context, builder string) ([]*BuilderState, error) {
	var scripts []string
	for _, r := range s.tb.Rings {
		scripts = append(scripts, dumpScript(SwiftDir, r.Name))
	}
	res, err := s.p.Run(ctx, builder, strings.Join(scripts, "\n"))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	if len(lines) != len(s.tb.Rings) {
		return nil, fmt.Errorf("reading %d ring builders gave %d lines", len(s.tb.Rings), len(lines))
	}
	states := make([]*BuilderState, len(lines))
	for i, l := range lines {
		if states[i], err = parseDump(l); err != nil {
			return nil, fmt.Errorf("ring %s: %w", s.tb.Rings[i].Name, err)
		}
	}
	return states, nil
}

// switchRing re-ports one ring and reports whether anything changed.
func (s *Sweeper) switchRing(ctx context.Context, builder string, r *plan.Ring, v *plan.Variant, have *BuilderState) (bool, error) {
	if have == nil || !have.RingFile {
		return false, fmt.Errorf("no builder or ring file in %s: run `benchbed setup %s` first", SwiftDir, s.tb.File)
	}
	c, err := PlanRing(SwiftDir, r, have, layoutDevs(s.tb, s.rend[v.Name].Layout.Ring(r.Name)))
	if err != nil || len(c.Commands) == 0 {
		return false, err
	}
	if c.Rebalance {
		return false, fmt.Errorf("the ring differs from the testbed in more than ports (%s): run `benchbed setup %s` first",
			strings.Join(c.Changes, "; "), s.tb.File)
	}
	ringFile := path.Join(SwiftDir, r.Name+".ring.gz")
	before, err := s.p.Run(ctx, builder, partitionsScript(ringFile))
	if err != nil {
		return false, err
	}
	script := "set -e\n" + strings.Join(c.Commands, " >/dev/null\n") + " >/dev/null\n"
	if _, err := s.p.Run(ctx, builder, script); err != nil {
		return false, err
	}
	after, err := s.p.Run(ctx, builder, partitionsScript(ringFile))
	if err != nil {
		return false, err
	}
	if string(before.Stdout) != string(after.Stdout) {
		return true, fmt.Errorf("the partition assignment changed with the ports (%s): the data would move; stopping", strings.Join(c.Changes, "; "))
	}
	s.logf("  ring %s: %s (partition assignment unchanged)", r.Name, strings.Join(c.Changes, ", "))
	return true, nil
}
