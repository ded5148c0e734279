package rings

import (
	"benchbed/internal/cluster"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

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
import json, sys
`+portsPy+`
builder_file, ring_file, ports = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
before = assignment(ring_file)
b = RingBuilder.load(builder_file)
changed = set_ports(b, ports)
b.save(builder_file)
b.get_ring().save(ring_file)  # also when only the ring file was stale
print(json.dumps({"before": before, "after": assignment(ring_file), "changed": changed}))
PY`, remote.Quote(builderFile), remote.Quote(ringFile), remote.Quote(string(b)))
}

// portsPy is the Python both port switches share (switchPortsScript in
// place, prepareScript ahead): assignment(ring_file) hashes the partition
// assignment (replica -> partition -> device id) of a ring file;
// set_ports(builder, ports) sets each device's port and replication port
// to ports[ip/device] and returns how many changed.
const portsPy = `import hashlib
from swift.common.ring import RingBuilder, RingData
def assignment(ring_file):
    h = hashlib.sha256()
    for row in RingData.load(ring_file)._replica2part2dev_id:
        h.update(row.tobytes())
    return h.hexdigest()
def set_ports(b, ports):
    changed = 0
    for d in b.devs:
        if d is None:
            continue
        p = ports.get(d["ip"] + "/" + d["device"])
        if p is not None and (d["port"] != p or d.get("replication_port") != p):
            d["port"] = d["replication_port"] = p
            changed += 1
    return changed`

// DumpRings reads every ring's builder on the builder host in one command
// and one Python process (dumpAllScript; one per ring took a second of the
// cell's ring step), one line each.
func DumpRings(ctx context.Context, r cluster.Runner, tb *plan.Testbed, builder string) ([]*BuilderState, error) {
	var names []string
	for _, rg := range tb.Rings {
		names = append(names, rg.Name)
	}
	res, err := r.Run(remote.Quiet(ctx), builder, dumpAllScript(cluster.SwiftDir, names))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	if len(lines) != len(tb.Rings) {
		return nil, fmt.Errorf("reading %d ring builders gave %d lines", len(tb.Rings), len(lines))
	}
	states := make([]*BuilderState, len(lines))
	for i, l := range lines {
		if states[i], err = parseDump(l); err != nil {
			return nil, fmt.Errorf("ring %s: %w", tb.Rings[i].Name, err)
		}
	}
	return states, nil
}

// dumpAllScript is dumpScript for every ring of names, in one Python
// process: a line each, in names' order (null for a ring without builder).
func dumpAllScript(dir string, names []string) string {
	var args []string
	for _, n := range names {
		args = append(args, remote.Quote(BuilderPath(dir, n)), remote.Quote(path.Join(dir, n+".ring.gz")))
	}
	return `/usr/bin/python3 - ` + strings.Join(args, " ") + ` <<'PY'
import json, os, sys
from swift.common.ring import RingBuilder, RingData
args = sys.argv[1:]
for builder_file, ring_file in zip(args[::2], args[1::2]):
    if not os.path.isfile(builder_file):
        print("null")
        continue
    b = RingBuilder.load(builder_file)
    devs = [{k: d[k] for k in ("id", "region", "zone", "ip", "port", "device", "weight")}
            for d in b.devs if d is not None]
    exists = os.path.exists(ring_file)
    current = False
    if exists and b.devs_changed is False and b._replica2part2dev:
        current = b.get_ring().to_dict() == RingData.load(ring_file).to_dict()
    print(json.dumps({"part_power": b.part_power, "replicas": b.replicas,
                      "min_part_hours": b.min_part_hours, "devs": devs,
                      "ring_file": exists, "ring_current": current,
                      "devs_changed": bool(b.devs_changed)}))
PY`
}

// SwitchRingPorts brings ring r's device ports on the builder host to
// layout l's in place (switchPortsScript), without a rebalance, and
// reports what changed and whether it switched anything. A ring that differs in more than
// ports is refused (that is setup's work), and so is a switch that moved
// the partition assignment.
func SwitchRingPorts(ctx context.Context, p cluster.Runner, tb *plan.Testbed, builder string, r *plan.Ring, l *plan.Layout, have *BuilderState) (changes []string, switched bool, err error) {
	if have == nil || !have.RingFile {
		return nil, false, fmt.Errorf("no builder or ring file in %s: run `benchbed setup %s` first", cluster.SwiftDir, tb.File)
	}
	want := layoutDevs(tb, l.Ring(r.Name))
	c, err := planRing(cluster.SwiftDir, r, have, want)
	if err != nil || len(c.Args) == 0 {
		return nil, false, err
	}
	if c.Rebalance {
		return nil, false, fmt.Errorf("the ring differs from the testbed in more than ports (%s): run `benchbed setup %s` first",
			strings.Join(c.Changes, "; "), tb.File)
	}
	ports := map[string]int{}
	for _, w := range want {
		ports[w.Key()] = w.Port
	}
	script := switchPortsScript(BuilderPath(cluster.SwiftDir, r.Name), path.Join(cluster.SwiftDir, r.Name+".ring.gz"), ports)
	res, err := p.Run(ctx, builder, script)
	if err != nil {
		return nil, false, err
	}
	var out struct {
		Before, After string
		Changed       int
	}
	if err := json.Unmarshal(res.Stdout, &out); err != nil {
		return nil, false, fmt.Errorf("reading the port switch's result %q: %w", res.Stdout, err)
	}
	if out.Before == "" || out.Before != out.After {
		return c.Changes, true, fmt.Errorf("the partition assignment changed with the ports (%s): the data would move; stopping", strings.Join(c.Changes, "; "))
	}
	return c.Changes, true, nil
}
