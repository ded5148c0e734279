package decode

import (
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

func defaultSSH() plan.SSH {
	return plan.SSH{Parallelism: plan.DefaultParallelism, ConnectTimeout: plan.DefaultConnectTimeout}
}

func defaultSweep() plan.Sweep {
	return plan.Sweep{Repeat: plan.DefaultRepeat, OnFailure: plan.DefaultOnFailure, Restore: true, RunsDir: plan.DefaultRunsDir,
		MaxErrorRate: plan.DefaultMaxError}
}

// decodeTestbed decodes the one testbed block.
func (d *decoder) decodeTestbed(blocks []*hcl.Block, body hcl.Body) {
	b := d.Single(blocks)
	if b == nil {
		d.Errorf(body.MissingItemRange().Ptr(), "Missing testbed block",
			"a testbed file needs one testbed \"name\" { description = \"...\" } block")
		return
	}
	d.tb.Name, d.tb.DefRange = b.Labels[0], b.DefRange
	d.checkName(b.Labels[0], b.LabelRanges[0], "testbed")
	c := d.Attrs(b.Body, []string{"description", "swift_version"})
	if a := c.Attributes["description"]; a != nil {
		d.tb.Description, _ = d.Str(a, d.Ctx)
	}
	if a := c.Attributes["swift_version"]; a != nil {
		d.tb.SwiftVersion, _ = d.Str(a, d.Ctx)
		d.tb.SwiftVersionRange = a.Expr.Range()
	}
}

// decodeSSH decodes the ssh block.
func (d *decoder) decodeSSH(b *hcl.Block) {
	if b == nil {
		return
	}
	c := d.Attrs(b.Body, []string{"user", "port", "identity_files", "known_hosts", "proxy_jump",
		"become", "parallelism", "connect_timeout", "config"})
	s := &d.tb.SSH
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "user":
			s.User, _ = d.Str(a, d.Ctx)
		case "port":
			s.Port, _ = d.Integer(a, d.Ctx, 1, 65535)
		case "identity_files":
			s.IdentityFiles, _ = d.Strings(a, d.Ctx)
		case "known_hosts":
			s.KnownHosts = d.stringOrList(a)
		case "proxy_jump":
			s.ProxyJump, _ = d.Str(a, d.Ctx)
		case "become":
			s.Become, _ = d.Bool(a, d.Ctx)
		case "parallelism":
			s.Parallelism, _ = d.Integer(a, d.Ctx, 1, 4096)
		case "connect_timeout":
			s.ConnectTimeout, _ = d.Duration(a, d.Ctx)
		case "config":
			s.Config, _ = d.Str(a, d.Ctx)
		}
	}
}

// stringOrList accepts "x" or ["x", "y"].
func (d *decoder) stringOrList(a *hcl.Attribute) []string {
	v, diags := d.Eval(a.Expr, d.Ctx)
	if !diags.HasErrors() && v.Type().IsPrimitiveType() {
		s, _ := d.Str(a, d.Ctx)
		return []string{s}
	}
	l, _ := d.Strings(a, d.Ctx)
	return l
}

// decodePrefill decodes the prefill block.
func (d *decoder) decodePrefill(b *hcl.Block) {
	if b == nil {
		return
	}
	c := d.Attrs(b.Body, []string{"workloads", "verify", "clients", "agents_per_client", "concurrency"})
	p := &plan.Prefill{Verify: plan.DefaultVerify, AgentsPerClient: plan.DefaultAgentsPerClient,
		Concurrency: plan.DefaultPrefillConc, DefRange: b.DefRange}
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "workloads":
			if p.Workloads, _ = d.Strings(a, d.Ctx); p.Workloads != nil {
				p.Workloads = d.expandWorkloadRefs(p.Workloads)
				d.checkRefs(a, p.Workloads, "workload", d.workloadNames())
			}
		case "verify":
			p.Verify, _ = d.OneOf(a, d.Ctx, "listing", "head")
		case "clients":
			p.Clients, _ = d.Strings(a, d.Ctx)
			d.checkClients(a, p.Clients)
		case "agents_per_client":
			p.AgentsPerClient, _ = d.Integer(a, d.Ctx, 1, 1024)
		case "concurrency":
			p.Concurrency, _ = d.Integer(a, d.Ctx, 1, 1<<20)
		}
	}
	d.tb.Prefill = p
}

// decodeSweep decodes the sweep block.
func (d *decoder) decodeSweep(b *hcl.Block) {
	if b == nil {
		return
	}
	c := d.Attrs(b.Body, []string{"repeat", "interleave", "warmup", "on_failure", "restore", "runs_dir", "max_error_rate"})
	s := &d.tb.Sweep
	s.DefRange = b.DefRange
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "repeat":
			s.Repeat, _ = d.Integer(a, d.Ctx, 1, 1000)
		case "interleave":
			s.Interleave, _ = d.Bool(a, d.Ctx)
		case "warmup":
			s.Warmup, _ = d.Duration(a, d.Ctx)
		case "on_failure":
			s.OnFailure, _ = d.OneOf(a, d.Ctx, "continue", "stop")
		case "restore":
			s.Restore, _ = d.Bool(a, d.Ctx)
		case "runs_dir":
			s.RunsDir, _ = d.Str(a, d.Ctx)
		case "max_error_rate":
			s.MaxErrorRate, _ = d.rate(a, d.Ctx)
		}
	}
}
