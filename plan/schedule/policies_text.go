package schedule

import (
	"fmt"
	"strings"

	"benchbed/plan"
)

// writePolicies lists the testbed's storage policies with their rings:
// the policy blocks, or the replicated Policy-N benchbed derives from the
// object rings without them.
func writePolicies(b *strings.Builder, tb *plan.Testbed) {
	b.WriteString("\npolicies:\n")
	for _, p := range tb.StoragePolicies() {
		fmt.Fprintf(b, "  %d %s: ", p.Index, p.Name)
		if p.IsEC() {
			fmt.Fprintf(b, "erasure coding %s %d+%d", p.ECType, p.ECData, p.ECParity)
			if p.Duplication() > 1 {
				fmt.Fprintf(b, " x%d", p.Duplication())
			}
			fmt.Fprintf(b, ", segment %d bytes", p.SegmentSize())
		} else {
			b.WriteString("replication")
		}
		fmt.Fprintf(b, ", ring %s", p.RingName())
		for _, f := range []struct {
			on   bool
			text string
		}{{p.Default, "default"}, {p.Deprecated, "deprecated"}, {len(p.Aliases) > 0, "aliases " + strings.Join(p.Aliases, ", ")}} {
			if f.on {
				b.WriteString(", " + f.text)
			}
		}
		b.WriteString("\n")
	}
}
