package sweep

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"

	"benchbed/internal/cluster"
	"benchbed/internal/cluster/rings"
	"benchbed/plan"
)

// switchRings brings every ring's device ports to variant v's layout on
// the builder host without a rebalance (set_info --change-port and
// --change-replication-port, then write_ring), confirms that the partition
// assignment is unchanged, distributes the ring files it switched, and marks the
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
	states, err := rings.DumpRings(ctx, s.p, s.tb, b.Name)
	if err != nil {
		return fmt.Errorf("rings on %s: %w", b.Name, err)
	}
	var switched []string // the ring files switched
	outs := switchAllRings(ctx, len(s.tb.Rings), func(ctx context.Context, i int) ([]string, bool, error) {
		return rings.SwitchRingPorts(ctx, s.p, s.tb, b.Name, s.tb.Rings[i], s.rend[v.Name].Layout, states[i])
	})
	for i, r := range s.tb.Rings {
		changes, did, err := outs[i].changes, outs[i].switched, outs[i].err
		if err != nil {
			return fmt.Errorf("ring %s on %s: %w", r.Name, b.Name, err)
		}
		if !did {
			continue
		}
		s.logf("  ring %s: %s (partition assignment unchanged)", r.Name, strings.Join(changes, ", "))
		switched = append(switched, path.Join(cluster.SwiftDir, r.Name+".ring.gz"))
		for _, h := range s.tb.HostsWithRole(r.Role) {
			for _, svc := range cluster.HostServices(s.tb, h) {
				if svc.Role == r.Role {
					rs.add(h.Name, svc.Name)
				}
			}
		}
	}
	if len(switched) == 0 {
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
	err = rings.DistributeRingFiles(ctx, s.p, s.tb, b, switched, rep)
	s.logChanges(rep)
	return err
}

// ringSwitch is one ring's port switch's outcome.
type ringSwitch struct {
	changes  []string
	switched bool
	err      error
}

// switchAllRings runs the n rings' port switches side by side (each is a
// Python process on the builder host, on its own ring's files) and
// returns their outcomes in the rings' order.
func switchAllRings(ctx context.Context, n int, fn func(ctx context.Context, i int) ([]string, bool, error)) []ringSwitch {
	outs := make([]ringSwitch, n)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := &outs[i]
			o.changes, o.switched, o.err = fn(ctx, i)
		}()
	}
	wg.Wait()
	return outs
}
