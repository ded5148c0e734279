package schedule

import (
	"benchbed/plan"
)

// PlanJSON is the shape of `benchbed plan --json`. docs/cli.md's contract is
// testbed, hosts[name,address,roles] and cells[id,variant,workload,repeat]
// in declaration order; the other fields are additional.
type PlanJSON struct {
	Testbed     string         `json:"testbed"`
	Description string         `json:"description,omitempty"`
	Files       []string       `json:"files,omitempty"` // the testbed's files as read, the testbed file first
	Hosts       []HostJSON     `json:"hosts"`
	ByRole      []RoleJSON     `json:"hosts_by_role"`
	Rings       []RingJSON     `json:"rings"`
	Workloads   []WorkloadJSON `json:"workloads"`
	Cells       []CellJSON     `json:"cells"`
	// Rounds are repeat = "auto"'s cells after Cells, each run only while
	// compare's test has not decided its pairs.
	Rounds   []CellJSON   `json:"auto_rounds,omitempty"`
	Before   []StepJSON   `json:"before,omitempty"`
	Finally  []StepJSON   `json:"finally,omitempty"`
	Estimate EstimateJSON `json:"estimate"`
	// SettingsCheck says which catalog of Swift's options checked the
	// settings, which went unchecked and which equal Swift's default.
	SettingsCheck SettingsCheckJSON `json:"settings_check"`
}

// SettingsCheckJSON is plan.SettingsCheck in the plan.
type SettingsCheckJSON struct {
	Catalog   string   `json:"catalog"`
	Unchecked []string `json:"unchecked"`
	AtDefault []string `json:"at_default"`
}

// HostJSON is a host in the plan.
type HostJSON struct {
	Name     string     `json:"name"`
	Address  string     `json:"address"`
	Roles    []string   `json:"roles"`
	Hardware []FactJSON `json:"hardware,omitempty"`
	Disks    []DiskJSON `json:"disks,omitempty"`
}

// FactJSON is a hardware fact.
type FactJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// DiskJSON is a host's disk group.
type DiskJSON struct {
	Group string   `json:"group"`
	Names []string `json:"names"`
}

// RoleJSON lists the hosts of a role.
type RoleJSON struct {
	Role  string   `json:"role"`
	Hosts []string `json:"hosts"`
}

// RingJSON is a ring with the ports of both layouts.
type RingJSON struct {
	Name        string         `json:"name"`
	PartPower   int            `json:"part_power"`
	Replicas    float64        `json:"replicas"`
	Disks       string         `json:"disks"`
	Devices     int            `json:"devices"`
	PortPerHost int            `json:"port_per_host"`
	PerDisk     []HostPortJSON `json:"port_per_disk"`
}

// HostPortJSON is the port range of one host's devices, one port per disk.
type HostPortJSON struct {
	Host    string `json:"host"`
	Devices int    `json:"devices"`
	First   int    `json:"first"`
	Last    int    `json:"last"`
}

// WorkloadJSON is a workload (an axis point of a workload block with
// for_each) as it will run.
type WorkloadJSON struct {
	Name        string            `json:"name"`
	Block       string            `json:"block"`
	Axis        *plan.AxisPoint   `json:"axis,omitempty"`
	ScenarioSet map[string]string `json:"scenario_set,omitempty"`
	Scenario    string            `json:"scenario,omitempty"`
	API         string            `json:"api,omitempty"` // "s3" for an S3 workload (omitted: Swift's API)
	Users       int               `json:"users"`
	DurationS   float64           `json:"duration_s,omitempty"`
	Operations  int               `json:"operation_count,omitempty"`
	Command     string            `json:"command,omitempty"` // a command workload's command
	Parser      string            `json:"parser,omitempty"`  // and its parser
	Fill        *FillJSON         `json:"fill,omitempty"`
	// Auto describes its search, runs that stop by themselves and
	// thresholds (plan.Workload.AutoLines).
	Auto []string `json:"auto,omitempty"`
	// Verify says whether its GETs are verified outside fault cells, and
	// VerifyWhy why (plan.Workload.VerifyIn); absent for a command workload.
	Verify    bool   `json:"verify,omitempty"`
	VerifyWhy string `json:"verify_why,omitempty"`
	// Variants are the variants it runs on when its variants attribute
	// names them; absent: every variant.
	Variants []string `json:"variants,omitempty"`
}

// FillJSON is a fill workload's target and buckets.
type FillJSON struct {
	ContainerObjects int64 `json:"container_objects"`
	Buckets          int   `json:"buckets"`
}

// CellJSON is a cell and its steps.
type CellJSON struct {
	ID        string            `json:"id"`
	Variant   string            `json:"variant"`
	Workload  string            `json:"workload"`
	Repeat    int               `json:"repeat"`
	Params    map[string]string `json:"params,omitempty"`
	Steps     []StepJSON        `json:"steps"`
	EstimateS float64           `json:"estimate_s"`
	// Verify says whether the cell's GETs are verified, VerifyWhy why
	// ("fault cell" where only its fault makes it so).
	Verify    bool   `json:"verify,omitempty"`
	VerifyWhy string `json:"verify_why,omitempty"`
}

// StepJSON is a step.
type StepJSON struct {
	Kind        string       `json:"kind"`
	Unchanged   bool         `json:"unchanged,omitempty"`
	Hosts       []string     `json:"hosts,omitempty"`
	Service     string       `json:"service,omitempty"`
	Path        string       `json:"path,omitempty"`
	Changes     []ChangeJSON `json:"changes,omitempty"`
	Ring        string       `json:"ring,omitempty"`
	PortPerDisk *bool        `json:"port_per_disk,omitempty"`
	Ports       []PortsJSON  `json:"ports,omitempty"`
	Workload    string       `json:"workload,omitempty"`
	Users       int          `json:"users,omitempty"`
	DurationS   float64      `json:"duration_s,omitempty"`
	Agents      int          `json:"agents,omitempty"`
	// Fault steps: the fault's kind and text, and when into the run.
	Fault string  `json:"fault,omitempty"`
	What  string  `json:"what,omitempty"`
	AtS   float64 `json:"at_s,omitempty"`
}

// PortsJSON is one host's ring port change.
type PortsJSON struct {
	Host    string   `json:"host"`
	Devices []string `json:"devices"`
	Old     []int    `json:"old"`
	New     []int    `json:"new"`
}

// ChangeJSON is a changed setting.
type ChangeJSON struct {
	Section string `json:"section"`
	Key     string `json:"key"`
	Old     string `json:"old"`
	New     string `json:"new"`
}

// EstimateJSON is the time estimate in seconds with its assumptions.
type EstimateJSON struct {
	TotalS      float64  `json:"total_s"`
	PrefillS    float64  `json:"prefill_s"`
	WideS       float64  `json:"wide_s"`                // the run-wide steps before and after the cells
	MaxTotalS   float64  `json:"max_total_s,omitempty"` // with every round of repeat = "auto" run
	Source      string   `json:"source"`                // where the step times come from: earlier runs' journals or measured defaults
	Assumptions []string `json:"assumptions"`
}

// JSON returns the plan in the shape of `benchbed plan --json`.
func (p *Schedule) JSON() PlanJSON {
	tb := p.Testbed
	out := PlanJSON{Testbed: tb.Name, Description: tb.Description, Files: tb.Sources, Hosts: []HostJSON{}, Cells: []CellJSON{}}
	for _, h := range tb.Hosts {
		hj := HostJSON{Name: h.Name, Address: h.Address, Roles: h.Roles}
		for _, f := range h.Hardware {
			hj.Hardware = append(hj.Hardware, FactJSON{Key: f.Key, Value: f.Value})
		}
		for _, g := range h.Disks {
			dj := DiskJSON{Group: g.Name}
			for _, d := range g.Disks {
				dj.Names = append(dj.Names, d.Name)
			}
			hj.Disks = append(hj.Disks, dj)
		}
		out.Hosts = append(out.Hosts, hj)
	}
	out.ByRole = rolesJSON(tb)
	sc := tb.SettingsCheck
	out.SettingsCheck = SettingsCheckJSON{Catalog: sc.Catalog, Unchecked: nonNil(sc.Unchecked), AtDefault: nonNil(sc.AtDefault)}
	for _, r := range tb.Rings {
		out.Rings = append(out.Rings, ringJSON(tb, r))
	}
	out.Workloads = []WorkloadJSON{}
	for _, w := range tb.Workloads {
		out.Workloads = append(out.Workloads, workloadJSON(w))
	}
	for i, c := range p.Cells {
		cj := CellJSON{ID: c.Cell.ID, Variant: c.Cell.Variant.Name, Workload: c.Cell.Workload.Name,
			Repeat: c.Cell.Repeat, Params: c.Cell.Workload.Params(), EstimateS: p.Estimate.PerCell[i].Seconds()}
		if !c.Cell.Workload.IsCommand() {
			cj.Verify, cj.VerifyWhy = c.Cell.Workload.VerifyIn(c.Cell.Variant)
		}
		for _, s := range c.Steps {
			cj.Steps = append(cj.Steps, stepJSON(s))
		}
		out.Cells = append(out.Cells, cj)
	}
	for _, rc := range p.Rounds {
		cj := CellJSON{ID: rc.Cell.ID, Variant: rc.Cell.Variant.Name, Workload: rc.Cell.Workload.Name,
			Repeat: rc.Cell.Repeat, Params: rc.Cell.Workload.Params(), EstimateS: rc.Estimate.Seconds()}
		for _, s := range rc.Steps {
			cj.Steps = append(cj.Steps, stepJSON(s))
		}
		out.Rounds = append(out.Rounds, cj)
	}
	for _, s := range p.Before {
		out.Before = append(out.Before, stepJSON(s))
	}
	for _, s := range p.Finally {
		out.Finally = append(out.Finally, stepJSON(s))
	}
	out.Estimate = EstimateJSON{TotalS: p.Estimate.Total.Seconds(), PrefillS: p.Estimate.Prefill.Seconds(),
		WideS: p.Estimate.Wide.Seconds(), Source: p.Estimate.Source, Assumptions: p.Estimate.Assumptions}
	if len(p.Rounds) > 0 {
		out.Estimate.MaxTotalS = p.Estimate.MaxTotal.Seconds()
	}
	return out
}

// workloadJSON is a workload with its axis point and run shape.
func workloadJSON(w *plan.Workload) WorkloadJSON {
	users, dur := plan.RunShape(w)
	out := WorkloadJSON{Name: w.Name, Block: w.Block, Axis: w.Axis, ScenarioSet: w.ScenarioSet,
		Scenario: w.ScenarioFile, Users: users, DurationS: dur.Seconds(), Operations: w.OperationCount, Variants: w.Variants}
	if w.IsCommand() {
		out.Scenario, out.Command, out.Parser = "", w.Command.Command, w.Command.ParserName
		return out
	}
	if out.Scenario == "" {
		out.Scenario = "(inline)"
	}
	if w.API == "s3" {
		out.API = "s3"
	}
	if w.Fill != nil {
		out.Fill = &FillJSON{ContainerObjects: w.Fill.ContainerObjects, Buckets: w.Fill.Buckets}
	}
	out.Auto = w.AutoLines()
	out.Verify, out.VerifyWhy = w.VerifyIn(nil)
	return out
}

// rolesJSON lists roles in first-seen order with their hosts.
func rolesJSON(tb *plan.Testbed) []RoleJSON {
	var out []RoleJSON
	idx := map[string]int{}
	for _, h := range tb.Hosts {
		for _, r := range h.Roles {
			i, ok := idx[r]
			if !ok {
				i = len(out)
				idx[r] = i
				out = append(out, RoleJSON{Role: r})
			}
			out[i].Hosts = append(out[i].Hosts, h.Name)
		}
	}
	return out
}

// ringJSON gives a ring's devices and the ports of each layout: one port
// per host (Port) or, per host, PortBase up to PortBase+disks-1.
func ringJSON(tb *plan.Testbed, r *plan.Ring) RingJSON {
	rj := RingJSON{Name: r.Name, PartPower: r.PartPower, Replicas: r.Replicas, Disks: r.Disks, PortPerHost: r.Port}
	for _, h := range tb.HostsWithRole(r.Role) {
		g := h.DiskGroup(r.Disks)
		if g == nil || len(g.Disks) == 0 {
			continue
		}
		rj.Devices += len(g.Disks)
		rj.PerDisk = append(rj.PerDisk, HostPortJSON{Host: h.Name, Devices: len(g.Disks),
			First: r.PortBase, Last: r.PortBase + len(g.Disks) - 1})
	}
	return rj
}

func stepJSON(s Step) StepJSON {
	sj := StepJSON{Kind: string(s.Kind), Unchanged: s.Unchanged, Hosts: s.Hosts, Service: s.Service, Path: s.Path, Ring: s.Ring,
		Workload: s.Workload, Users: s.Users, DurationS: s.Duration.Seconds(), Agents: s.Agents}
	if s.Fault != nil {
		sj.Fault, sj.What, sj.AtS = s.Fault.Kind, FaultText(s.Fault), s.At.Seconds()
	}
	if s.Kind == StepRingPorts && !s.Unchanged {
		b := s.PortPerDisk
		sj.PortPerDisk = &b
	}
	for _, c := range s.Changes {
		sj.Changes = append(sj.Changes, ChangeJSON(c))
	}
	for _, c := range s.Ports {
		sj.Ports = append(sj.Ports, PortsJSON{Host: c.Host, Devices: c.Devices, Old: c.Old, New: c.New})
	}
	return sj
}

// nonNil is s, or an empty list for nil (JSON's [] rather than null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
