package plan

import (
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Defaults of the model (see README "Defaults").
const (
	DefaultParallelism     = 32
	DefaultConnectTimeout  = 10 * time.Second
	DefaultRepeat          = 1
	DefaultOnFailure       = "continue"
	DefaultRunsDir         = "runs"
	DefaultAgentsPerClient = 1
	DefaultManager         = ManagerSystemd
	DefaultDiskWeight      = 100.0
	DefaultVerify          = "listing"
	DefaultPrefillConc     = 16
)

func defaultSSH() SSH {
	return SSH{Parallelism: DefaultParallelism, ConnectTimeout: DefaultConnectTimeout}
}

func defaultSweep() Sweep {
	return Sweep{Repeat: DefaultRepeat, OnFailure: DefaultOnFailure, Restore: true, RunsDir: DefaultRunsDir,
		MaxErrorRate: DefaultMaxError}
}

// attrs decodes body against a schema of attribute names (a name ending in
// "!" is required) and the given block types.
func (d *decoder) attrs(body hcl.Body, names []string, blocks ...hcl.BlockHeaderSchema) *hcl.BodyContent {
	schema := &hcl.BodySchema{Blocks: blocks}
	for _, n := range names {
		req := n[len(n)-1] == '!'
		if req {
			n = n[:len(n)-1]
		}
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n, Required: req})
	}
	c, diags := body.Content(schema)
	d.diags = append(d.diags, diags...)
	return c
}

// decodeTestbed decodes the one testbed block.
func (d *decoder) decodeTestbed(blocks []*hcl.Block, body hcl.Body) {
	b := d.single(blocks)
	if b == nil {
		d.errorf(body.MissingItemRange().Ptr(), "Missing testbed block",
			"a testbed file needs one testbed \"name\" { description = \"...\" } block")
		return
	}
	d.tb.Name, d.tb.DefRange = b.Labels[0], b.DefRange
	d.checkName(b.Labels[0], b.LabelRanges[0], "testbed")
	c := d.attrs(b.Body, []string{"description"})
	if a := c.Attributes["description"]; a != nil {
		d.tb.Description, _ = d.str(a, d.ctx)
	}
}

// decodeSSH decodes the ssh block.
func (d *decoder) decodeSSH(b *hcl.Block) {
	if b == nil {
		return
	}
	c := d.attrs(b.Body, []string{"user", "port", "identity_files", "known_hosts", "proxy_jump",
		"become", "parallelism", "connect_timeout", "config"})
	s := &d.tb.SSH
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "user":
			s.User, _ = d.str(a, d.ctx)
		case "port":
			s.Port, _ = d.integer(a, d.ctx, 1, 65535)
		case "identity_files":
			s.IdentityFiles, _ = d.strings(a, d.ctx)
		case "known_hosts":
			s.KnownHosts = d.stringOrList(a)
		case "proxy_jump":
			s.ProxyJump, _ = d.str(a, d.ctx)
		case "become":
			s.Become, _ = d.boolean(a, d.ctx)
		case "parallelism":
			s.Parallelism, _ = d.integer(a, d.ctx, 1, 4096)
		case "connect_timeout":
			s.ConnectTimeout, _ = d.duration(a, d.ctx)
		case "config":
			s.Config, _ = d.str(a, d.ctx)
		}
	}
}

// stringOrList accepts "x" or ["x", "y"].
func (d *decoder) stringOrList(a *hcl.Attribute) []string {
	v, diags := d.eval(a.Expr, d.ctx)
	if !diags.HasErrors() && v.Type().IsPrimitiveType() {
		s, _ := d.str(a, d.ctx)
		return []string{s}
	}
	l, _ := d.strings(a, d.ctx)
	return l
}

// decodePrefill decodes the prefill block.
func (d *decoder) decodePrefill(b *hcl.Block) {
	if b == nil {
		return
	}
	c := d.attrs(b.Body, []string{"workloads", "verify", "clients", "agents_per_client", "concurrency"})
	p := &Prefill{Verify: DefaultVerify, AgentsPerClient: DefaultAgentsPerClient,
		Concurrency: DefaultPrefillConc, DefRange: b.DefRange}
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "workloads":
			if p.Workloads, _ = d.strings(a, d.ctx); p.Workloads != nil {
				p.Workloads = d.expandWorkloadRefs(p.Workloads)
				d.checkRefs(a, p.Workloads, "workload", d.workloadNames())
			}
		case "verify":
			p.Verify, _ = d.oneOf(a, d.ctx, "listing", "head")
		case "clients":
			p.Clients, _ = d.strings(a, d.ctx)
			d.checkClients(a, p.Clients)
		case "agents_per_client":
			p.AgentsPerClient, _ = d.integer(a, d.ctx, 1, 1024)
		case "concurrency":
			p.Concurrency, _ = d.integer(a, d.ctx, 1, 1<<20)
		}
	}
	d.tb.Prefill = p
}

// decodeSweep decodes the sweep block.
func (d *decoder) decodeSweep(b *hcl.Block) {
	if b == nil {
		return
	}
	c := d.attrs(b.Body, []string{"repeat", "warmup", "on_failure", "restore", "runs_dir", "max_error_rate"})
	s := &d.tb.Sweep
	s.DefRange = b.DefRange
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "repeat":
			s.Repeat, _ = d.integer(a, d.ctx, 1, 1000)
		case "warmup":
			s.Warmup, _ = d.duration(a, d.ctx)
		case "on_failure":
			s.OnFailure, _ = d.oneOf(a, d.ctx, "continue", "stop")
		case "restore":
			s.Restore, _ = d.boolean(a, d.ctx)
		case "runs_dir":
			s.RunsDir, _ = d.str(a, d.ctx)
		case "max_error_rate":
			s.MaxErrorRate, _ = d.rate(a, d.ctx)
		}
	}
}
