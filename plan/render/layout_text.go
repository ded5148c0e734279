package render

import (
	"fmt"
	"strings"

	"benchbed/plan"
)

// LayoutFile is the name of the ring layout written beside rendered confs.
const LayoutFile = "ring-layout.txt"

// LayoutText gives the layout as written beside rendered confs: per ring a
// comment line and one "host ip:port/device weight" line per device.
func LayoutText(l *plan.Layout) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# ring layout of variant %q: host ip:port/device weight (swift-ring-builder add syntax after the host)\n", l.Variant)
	for _, rl := range l.Rings {
		fmt.Fprintf(&b, "\n# ring %s: part_power %d, replicas %g, %s\n", rl.Ring.Name, rl.Ring.PartPower, rl.Ring.Replicas, rl.Mode())
		for _, d := range rl.Devices {
			fmt.Fprintf(&b, "%s %s %g\n", d.Host, d, d.Weight)
		}
	}
	return b.String()
}
