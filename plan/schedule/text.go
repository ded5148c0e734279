package schedule

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"benchbed/plan"
)

// WriteText prints the plan for people: hosts by role with their hardware,
// rings with the ports of each layout, every cell with its steps, and the
// estimate with what it assumes.
func (p *Schedule) WriteText(w io.Writer) error {
	var b strings.Builder
	j := p.JSON()
	fmt.Fprintf(&b, "testbed %s", j.Testbed)
	if j.Description != "" {
		fmt.Fprintf(&b, ": %s", j.Description)
	}
	if len(j.Files) > 0 {
		fmt.Fprintf(&b, "\nfiles read: %s", strings.Join(j.Files, ", "))
	}
	b.WriteString("\n\nhosts by role:\n")
	for _, r := range j.ByRole {
		fmt.Fprintf(&b, "  %-10s %s\n", r.Role, strings.Join(r.Hosts, ", "))
	}
	b.WriteString("\nhosts:\n")
	for _, h := range j.Hosts {
		fmt.Fprintf(&b, "  %s (%s) roles %s\n", h.Name, h.Address, strings.Join(h.Roles, ", "))
		for _, f := range h.Hardware {
			fmt.Fprintf(&b, "    %s: %s\n", f.Key, f.Value)
		}
		for _, d := range h.Disks {
			fmt.Fprintf(&b, "    disks %s: %d (%s)\n", d.Group, len(d.Names), abbreviate(d.Names))
		}
	}
	b.WriteString("\nrings:\n")
	for _, r := range j.Rings {
		fmt.Fprintf(&b, "  %s: part_power %d, replicas %g, %d devices of disks %q\n", r.Name, r.PartPower, r.Replicas, r.Devices, r.Disks)
		fmt.Fprintf(&b, "    one port per host: %d\n", r.PortPerHost)
		for _, hp := range r.PerDisk {
			fmt.Fprintf(&b, "    one port per disk: %s %d-%d\n", hp.Host, hp.First, hp.Last)
		}
	}
	writePolicies(&b, p.Testbed)
	writeSettingsCheck(&b, j.SettingsCheck)
	writeWorkloads(&b, j.Workloads)
	b.WriteString("\nbefore the cells:\n")
	for _, s := range p.Before {
		writeStep(&b, p.Testbed, s)
	}
	fmt.Fprintf(&b, "\ncells: %d (repeat %d)\n", len(p.Cells), p.Testbed.Sweep.Repeat)
	for _, l := range repeatLines(p.Testbed) {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	for i, c := range p.Cells {
		fmt.Fprintf(&b, "  %s  variant %q, workload %q, repeat %d  (~%s)%s\n", c.Cell.ID, c.Cell.Variant.Name,
			c.Cell.Workload.Name, c.Cell.Repeat, short(p.Estimate.PerCell[i]), cellVerify(j.Cells[i]))
		for _, s := range c.Steps {
			writeStep(&b, p.Testbed, s)
		}
	}
	writeRounds(&b, p)
	b.WriteString("\nafter the cells (also of a failed or interrupted sweep):\n")
	for _, s := range p.Finally {
		writeStep(&b, p.Testbed, s)
	}
	fmt.Fprintf(&b, "\nestimate: %s", short(p.Estimate.Total))
	if p.Estimate.Prefill > 0 {
		fmt.Fprintf(&b, " (prefill %s)", short(p.Estimate.Prefill))
	}
	if p.Estimate.MaxTotal > p.Estimate.Total {
		fmt.Fprintf(&b, "; up to %s if every round of repeat auto runs", short(p.Estimate.MaxTotal))
	}
	b.WriteString("\n  assumes:\n")
	for _, a := range p.Estimate.Assumptions {
		fmt.Fprintf(&b, "    - %s\n", a)
	}
	_, err := io.WriteString(w, p.Testbed.Mask(b.String()))
	return err
}

// writeWorkloads lists the workloads, each axis point of a for_each with
// its each.value and scenario overrides.
func writeWorkloads(b *strings.Builder, ws []WorkloadJSON) {
	b.WriteString("\nworkloads:\n")
	for _, w := range ws {
		if w.Command != "" {
			fmt.Fprintf(b, "  %s: command %q, %d copies, parser %s%s\n", w.Name, w.Command, w.Users, w.Parser, variantsText(w.Variants))
			continue
		}
		fmt.Fprintf(b, "  %s: scenario %s, %d users", w.Name, w.Scenario, w.Users)
		if w.API == "s3" {
			b.WriteString(", through S3")
		}
		if w.DurationS > 0 {
			fmt.Fprintf(b, ", %s", short(time.Duration(w.DurationS*float64(time.Second))))
		}
		if w.Fill != nil {
			fmt.Fprintf(b, ", fill each container to %d objects, latency in %d buckets", w.Fill.ContainerObjects, w.Fill.Buckets)
		}
		if w.Axis != nil {
			fmt.Fprintf(b, "; axis %s[%d] = %s", w.Block, w.Axis.Index, w.Axis.Value)
		}
		for _, k := range slices.Sorted(maps.Keys(w.ScenarioSet)) {
			fmt.Fprintf(b, "; %s = %s", k, w.ScenarioSet[k])
		}
		fmt.Fprintf(b, "; %s%s\n", verifyText(w.Verify, w.VerifyWhy), variantsText(w.Variants))
		for _, l := range w.Auto {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
}

// variantsText is "; on variants a, b" for a workload whose variants
// attribute names them, "" for one that runs on every variant.
func variantsText(vs []string) string {
	if vs == nil {
		return ""
	}
	return "; on variants " + abbreviate(vs)
}

// verifyText is "verify: on (erasure-coded policy)" or "verify: off (default)".
func verifyText(on bool, why string) string {
	if on {
		return "verify: on (" + why + ")"
	}
	return "verify: off (" + why + ")"
}

// cellVerify is the cell line's "; verify: on (fault cell)" where the
// cell verifies only because of its fault (its workload's line says the
// rest), else "".
func cellVerify(c CellJSON) string {
	if c.VerifyWhy != plan.VerifyFault {
		return ""
	}
	return "; " + verifyText(c.Verify, c.VerifyWhy)
}

func orUnset(s string) string {
	if s == "" {
		return "(unset)"
	}
	return s
}

// abbreviate lists names, eliding the middle of long lists.
func abbreviate(names []string) string {
	if len(names) <= 6 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:3], ", ") + ", ..., " + strings.Join(names[len(names)-2:], ", ")
}

// short prints a duration rounded to the second.
func short(d time.Duration) string { return d.Round(time.Second).String() }
