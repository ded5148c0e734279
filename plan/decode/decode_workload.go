package decode

import (
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
	"benchbed/templates"
)

var workloadBlocks = []hcl.BlockHeaderSchema{{Type: "auth"}, {Type: "fill"}, {Type: "search"}, {Type: "threshold"}}

// workloadAttrs are a workload block's attributes ("!" = required).
var workloadAttrs = append([]string{"for_each", "name", "scenario", "scenario_set", "users", "duration",
	"operation_count", "rate", "clients", "agents_per_client", "storage_url", "token", "max_error_rate",
	"max_fault_error_rate", "policy", "verify", "endpoints", "variants", "api"}, append(autoAttrs, commandAttrs...)...)

// decodeWorkload decodes one workload block, expanded over its for_each:
// each element is one axis point, a workload of its own.
func (d *decoder) decodeWorkload(b *hcl.Block) {
	label := b.Labels[0]
	if !d.checkName(label, b.LabelRanges[0], "workload") {
		return
	}
	c := d.Attrs(b.Body, workloadAttrs, workloadBlocks...)
	fe := c.Attributes["for_each"]
	if fe == nil {
		ctx := d.NoEachContext(b.Body, "workload", label)
		name, rng := label, b.LabelRanges[0]
		if a := c.Attributes["name"]; a != nil {
			var ok bool
			if name, ok = d.Str(a, ctx); !ok {
				return
			}
			rng = a.Expr.Range()
		}
		d.addWorkload(d.buildWorkload(b, c, name, ctx), rng)
		return
	}
	points, _ := d.ForEach(fe, "workload", label)
	d.EachDiags(points, func(p lang.EachPoint) { d.workloadPoint(b, c, fe, p) })
}

// workloadPoint builds the workload of one point of a for_each.
func (d *decoder) workloadPoint(b *hcl.Block, c *hcl.BodyContent, fe *hcl.Attribute, p lang.EachPoint) {
	name, rng := p.Name, fe.Expr.Range()
	if a := c.Attributes["name"]; a != nil {
		var ok bool
		if name, ok = d.Str(a, p.Ctx); !ok {
			return
		}
		rng = a.Expr.Range()
	}
	w := d.buildWorkload(b, c, name, p.Ctx)
	if w != nil {
		w.Axis = &plan.AxisPoint{Index: p.Index, Key: lang.EachText(p.Key), Value: lang.EachText(p.Value)}
	}
	d.addWorkload(w, rng)
}

// addWorkload appends w unless its name is taken; rng is where the name
// was given (the label, the name attribute or the for_each).
func (d *decoder) addWorkload(w *plan.Workload, rng hcl.Range) {
	if w == nil {
		return
	}
	if prev := d.workloadSeen(w.Name); prev != nil {
		d.Errorf(rng.Ptr(), "Duplicate workload", "workload %q is already declared at %s", w.Name, prev)
		return
	}
	if len(d.tb.Workloads) == MaxWorkloads {
		d.Errorf(rng.Ptr(), "Too many workloads", "a testbed has at most %d workloads, for_each points included", MaxWorkloads)
	}
	if len(d.tb.Workloads) >= MaxWorkloads {
		return
	}
	if d.workloadByName == nil {
		d.workloadByName = map[string]*plan.Workload{}
	}
	d.workloadByName[w.Name] = w
	d.tb.Workloads = append(d.tb.Workloads, w)
}

// buildWorkload decodes one workload (one axis point of a for_each) named
// name, evaluating its attributes in ctx.
func (d *decoder) buildWorkload(b *hcl.Block, c *hcl.BodyContent, name string, ctx *hcl.EvalContext) *plan.Workload {
	if !d.checkName(name, b.DefRange, "workload") {
		return nil
	}
	w := &plan.Workload{Name: name, Block: b.Labels[0], AgentsPerClient: plan.DefaultAgentsPerClient, DefRange: b.DefRange}
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "scenario":
			if c.Attributes["command"] == nil {
				d.decodeScenario(w, a, c.Attributes["scenario_set"], ctx)
			}
		case "users":
			w.Users, _ = d.Integer(a, ctx, 1, 1<<24)
		case "duration":
			d.decodeRunDuration(w, a, ctx)
		case "operation_count":
			w.OperationCount, _ = d.Integer(a, ctx, 1, 1<<62)
		case "rate":
			if w.Rate, _ = d.Number(a, ctx); w.Rate < 0 {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid value for rate", "rate must be >= 0 requests/s (0 = closed loop)")
			}
		case "clients":
			w.Clients, _ = d.Strings(a, ctx)
			d.checkClients(a, w.Clients)
		case "agents_per_client":
			w.AgentsPerClient, _ = d.Integer(a, ctx, 1, 1024)
		case "storage_url":
			w.StorageURL, _ = d.Str(a, ctx)
		case "token":
			w.Token = d.Secret(a, ctx)
		case "max_error_rate":
			if r, ok := d.rate(a, ctx); ok {
				w.MaxErrorRate = &r
			}
		case "max_fault_error_rate":
			if r, ok := d.rate(a, ctx); ok {
				w.MaxFaultErrorRate = &r
			}
		case "variants":
			d.decodeWorkloadVariants(w, a, ctx)
		}
	}
	if c.Attributes["command"] != nil {
		d.decodeCommand(w, b, c, ctx)
		d.checkAutoCommand(w, c)
		return w
	}
	d.decodeAuto(w, c, ctx)
	d.checkRepeatVariants(w)
	if c.Attributes["scenario"] == nil {
		d.Errorf(b.DefRange.Ptr(), "Missing scenario or command", "%s", commandHint(w.Name))
		return w
	}
	for _, blk := range c.Blocks {
		switch {
		case blk.Type == "auth" && w.Auth == nil:
			w.Auth = d.decodeAuth(blk, ctx)
		case blk.Type == "fill" && w.Fill == nil:
			w.Fill = d.decodeFill(w, blk, ctx)
		case blk.Type == "search" && w.Search == nil:
			w.Search = d.decodeSearch(w, blk, c, ctx)
		case blk.Type == "threshold":
			d.decodeThreshold(w, blk, ctx)
		default:
			d.Errorf(blk.DefRange.Ptr(), "Duplicate "+blk.Type+" block", "workload %q has more than one %s block", w.Name, blk.Type)
		}
	}
	d.workloadPolicy(w, b, c, ctx)
	d.checkWorkloadAuth(w, b, c)
	d.decodeAPI(w, c, ctx)
	d.checkFill(w, c)
	if a := c.Attributes["operation_count"]; a != nil && c.Attributes["duration"] != nil {
		d.Errorf(a.NameRange.Ptr(), "Conflicting run bounds", "workload %q: give duration or operation_count, not both", w.Name)
	}
	return w
}

// checkWorkloadAuth requires either an auth block or storage_url and token.
func (d *decoder) checkWorkloadAuth(w *plan.Workload, b *hcl.Block, c *hcl.BodyContent) {
	direct := c.Attributes["storage_url"] != nil || c.Attributes["token"] != nil
	switch {
	case w.Auth != nil && direct:
		d.Errorf(b.DefRange.Ptr(), "Conflicting workload auth", "workload %q: give an auth block or storage_url and token, not both", w.Name)
	case w.Auth == nil && !direct:
		d.Errorf(b.DefRange.Ptr(), "Missing workload auth", "workload %q needs an auth { url, user, key } block or storage_url and token", w.Name)
	case direct && (c.Attributes["storage_url"] == nil || c.Attributes["token"] == nil):
		d.Errorf(b.DefRange.Ptr(), "Incomplete workload auth", "workload %q: storage_url and token go together", w.Name)
	}
}

// decodeAuth decodes an auth block.
func (d *decoder) decodeAuth(b *hcl.Block, ctx *hcl.EvalContext) *plan.Auth {
	au := &plan.Auth{Kind: "v1", DefRange: b.DefRange}
	c := d.Attrs(b.Body, []string{"kind", "url!", "user!", "key!", "project", "domain", "region", "path_style", "payload"})
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "kind":
			au.Kind, _ = d.OneOf(a, ctx, "v1", "v3")
		case "url":
			if u, ok := d.Str(a, ctx); ok {
				au.URL = u
				d.checkAuthURL(a, u)
			}
		case "user":
			au.User, _ = d.Str(a, ctx)
		case "key":
			au.Key = d.Secret(a, ctx)
		case "project":
			au.Project, _ = d.Str(a, ctx)
		case "domain":
			au.Domain, _ = d.Str(a, ctx)
		case "region", "path_style", "payload":
			d.decodeS3Auth(au, a, ctx)
		}
	}
	return au
}

// readLimited reads a regular file of at most templates.MaxFileSize bytes.
func readLimited(p string) ([]byte, error) { return templates.ReadBounded(p) }
