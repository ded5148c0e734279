package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/remote"
)

// switchPortsScript sets every device's port and replication port to
// ports[ip/device] in one Python process with Swift's own RingBuilder (one
// swift-ring-builder start per device took most of a cell's overhead),
// writes the builder and the ring file without a rebalance, and prints as
// JSON a hash of the partition assignment (replica -> partition -> device
// id) read from the ring file before and after, and how many devices
// changed.
func switchPortsScript(builderFile, ringFile string, ports map[string]int) string {
	b, _ := json.Marshal(ports)
	return fmt.Sprintf(`/usr/bin/python3 - %s %s %s <<'PY'
import hashlib, json, sys
from swift.common.ring import RingBuilder, RingData
builder_file, ring_file, ports = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
def assignment():
    h = hashlib.sha256()
    for row in RingData.load(ring_file)._replica2part2dev_id:
        h.update(row.tobytes())
    return h.hexdigest()
before = assignment()
b = RingBuilder.load(builder_file)
changed = 0
for d in b.devs:
    if d is None:
        continue
    p = ports.get(d["ip"] + "/" + d["device"])
    if p is not None and (d["port"] != p or d.get("replication_port") != p):
        d["port"] = d["replication_port"] = p
        changed += 1
b.save(builder_file)
b.get_ring().save(ring_file)  # also when only the ring file was stale
print(json.dumps({"before": before, "after": assignment(), "changed": changed}))
PY`, remote.Quote(builderFile), remote.Quote(ringFile), remote.Quote(string(b)))
}

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

// dumpRings reads every ring's builder in one command (one line each).
func (s *Sweeper) dumpRings(ctx context.Context, builder string) ([]*cluster.BuilderState, error) {
	var scripts []string
	for _, r := range s.tb.Rings {
		scripts = append(scripts, cluster.DumpScript(cluster.SwiftDir, r.Name))
	}
	res, err := s.p.Run(ctx, builder, strings.Join(scripts, "\n"))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	if len(lines) != len(s.tb.Rings) {
		return nil, fmt.Errorf("reading %d ring builders gave %d lines", len(s.tb.Rings), len(lines))
	}
	states := make([]*cluster.BuilderState, len(lines))
	for i, l := range lines {
		if states[i], err = cluster.ParseDump(l); err != nil {
			return nil, fmt.Errorf("ring %s: %w", s.tb.Rings[i].Name, err)
		}
	}
	return states, nil
}

// switchRing re-ports one ring and reports whether anything changed.
func (s *Sweeper) switchRing(ctx context.Context, builder string, r *plan.Ring, v *plan.Variant, have *cluster.BuilderState) (bool, error) {
	if have == nil || !have.RingFile {
		return false, fmt.Errorf("no builder or ring file in %s: run `benchbed setup %s` first", cluster.SwiftDir, s.tb.File)
	}
	want := cluster.LayoutDevs(s.tb, s.rend[v.Name].Layout.Ring(r.Name))
	c, err := cluster.PlanRing(cluster.SwiftDir, r, have, want)
	if err != nil || len(c.Commands) == 0 {
		return false, err
	}
	if c.Rebalance {
		return false, fmt.Errorf("the ring differs from the testbed in more than ports (%s): run `benchbed setup %s` first",
			strings.Join(c.Changes, "; "), s.tb.File)
	}
	ports := map[string]int{}
	for _, w := range want {
		ports[w.Key()] = w.Port
	}
	script := switchPortsScript(cluster.BuilderPath(cluster.SwiftDir, r.Name), path.Join(cluster.SwiftDir, r.Name+".ring.gz"), ports)
	res, err := s.p.Run(ctx, builder, script)
	if err != nil {
		return false, err
	}
	var out struct {
		Before, After string
		Changed       int
	}
	if err := json.Unmarshal(res.Stdout, &out); err != nil {
		return false, fmt.Errorf("reading the port switch's result %q: %w", res.Stdout, err)
	}
	if out.Before == "" || out.Before != out.After {
		return true, fmt.Errorf("the partition assignment changed with the ports (%s): the data would move; stopping", strings.Join(c.Changes, "; "))
	}
	s.logf("  ring %s: %s (partition assignment unchanged)", r.Name, strings.Join(c.Changes, ", "))
	return true, nil
}
