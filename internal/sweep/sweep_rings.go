package sweep

import (
	"context"
	"fmt"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/plan"
)

// switchRings brings every ring's device ports to variant v's layout on
// the builder host without a rebalance (set_info --change-port and
// --change-replication-port, then write_ring), confirms that the partition
// assignment is unchanged, distributes the ring files, and marks the
// ring's servers for restart. A ring that differs in more than ports is
// refused: that is setup's work.
func (s *Sweeper) switchRings(ctx context.Context, v *plan.Variant, rs *restarts) error {
	if len(s.tb.Rings) == 0 {
		return nil // only generic services: no Swift ring to switch
	}
	b, err := cluster.BuilderHost(s.tb)
	if err != nil {
		return err
	}
	states, err := cluster.DumpRings(ctx, s.p, s.tb, b.Name)
	if err != nil {
		return fmt.Errorf("rings on %s: %w", b.Name, err)
	}
	switched := false
	for i, r := range s.tb.Rings {
		changes, did, err := cluster.SwitchRingPorts(ctx, s.p, s.tb, b.Name, r, s.rend[v.Name].Layout, states[i])
		if err != nil {
			return fmt.Errorf("ring %s on %s: %w", r.Name, b.Name, err)
		}
		if !did {
			continue
		}
		s.logf("  ring %s: %s (partition assignment unchanged)", r.Name, strings.Join(changes, ", "))
		switched = true
		for _, h := range s.tb.HostsWithRole(r.Role) {
			for _, svc := range cluster.HostServices(s.tb, h) {
				if svc.Role == r.Role {
					rs.add(h.Name, svc.Name)
				}
			}
		}
	}
	if !switched {
		return nil
	}
	// A proxy loads a changed ring only within its reload_time (15 s):
	// until then it sends requests to the old ports, where nothing listens
	// once the ring's servers restarted. Restarting the proxies makes them
	// use the new ring before the warm-up (on the distro lab, where systemd
	// restarts the object servers in 1.5 s, the cell's first seconds got
	// 503s).
	for _, h := range s.tb.HostsWithRole("proxy") {
		for _, svc := range cluster.HostServices(s.tb, h) {
			if svc.Role == "proxy" {
				rs.add(h.Name, svc.Name)
			}
		}
	}
	rep := cluster.NewSummary(cluster.Names(s.tb.Hosts))
	err = cluster.DistributeRings(ctx, s.p, s.tb, b, rep)
	s.logChanges(rep)
	return err
}
