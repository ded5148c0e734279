package sweep

import (
	"context"
	"strings"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/cluster/rings"
	"benchbed/plan"
)

// switchRings brings every ring's device ports to variant v's layout
// without a rebalance (rings.SwitchLayout: from the files prepareRings
// made, or each ring dumped and switched in place), the partition
// assignment unchanged, the switched ring files on every host, and marks
// the switched rings' servers for restart. A ring that differs in more
// than ports is refused: that is setup's work.
func (s *Sweeper) switchRings(ctx context.Context, v *plan.Variant, rs *restarts) error {
	if len(s.tb.Rings) == 0 {
		return nil // only generic services: no Swift ring to switch
	}
	b, err := s.tb.BuilderHost()
	if err != nil {
		return err
	}
	rep := cluster.NewReport(cluster.Names(s.tb.Hosts))
	switched, err := rings.SwitchLayout(ctx, s.p, s.tb, b, s.made.rend[v.Name].Layout, s.made.rings, rep)
	for _, sw := range switched {
		how := "partition assignment unchanged"
		if sw.Ahead {
			how += ", files made before the cells"
		}
		s.logf("  ring %s: %s (%s)", sw.Ring.Name, strings.Join(sw.Changes, ", "), how)
		s.restartRing(sw.Ring, rs)
	}
	s.logChanges(rep)
	return err
}

// restartRing marks for restart the servers of ring r's role, and the
// proxies: a proxy loads a changed ring only within its reload_time (15 s),
// and until then sends requests to the old ports, where nothing listens
// once the ring's servers restarted. Restarting the proxies makes them use
// the new ring before the warm-up (on the distro lab, where systemd
// restarts the object servers in 1.5 s, the cell's first seconds got
// 503s).
func (s *Sweeper) restartRing(r *plan.Ring, rs *restarts) {
	for _, role := range []string{r.Role, "proxy"} {
		for _, h := range s.tb.HostsWithRole(role) {
			for _, svc := range cluster.HostServices(s.tb, h) {
				if svc.Role == role {
					rs.add(h.Name, svc.Name)
				}
			}
		}
	}
}

// prepareRings makes, once before the cells, every ring's files for each
// port layout the sweep's variants switch to (rings.PrepareLayouts: two
// Python processes on the builder host, its files only read), so that a
// cell's ring step is a checksum and uploads, not a Python start per ring
// (2.1 s of each switching cell on the lab). Without them (no Swift ring,
// no layout that changes a port, or a failure, logged) every cell dumps
// and switches its rings itself.
func (s *Sweeper) prepareRings(ctx context.Context, r rendered) *rings.Prepared {
	tb := r.tb
	if len(tb.Rings) == 0 || len(tb.Services) == 0 {
		return nil
	}
	var layouts []*plan.Layout
	for _, v := range tb.Variants {
		if s.selected(plan.Cell{Variant: v}) {
			layouts = append(layouts, r.rend[v.Name].Layout)
		}
	}
	b, err := tb.BuilderHost()
	if err != nil {
		return nil // the cells say so
	}
	began := time.Now()
	prep, err := rings.PrepareLayouts(ctx, s.p, tb, b.Name, layouts)
	if err != nil {
		s.logf("rings: the variants' ring files were not made ahead (%v); each cell switches its own", err)
		return nil
	}
	if len(prep.Rings) == 0 {
		return nil
	}
	s.logf("rings: %d ring(s)' files for the variants' ports made on %s in %.1f s", len(prep.Rings), b.Name, time.Since(began).Seconds())
	return prep
}
