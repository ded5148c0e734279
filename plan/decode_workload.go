package plan

import (
	"os"
	"strings"

	"benchbed/load"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

var workloadBlocks = []hcl.BlockHeaderSchema{{Type: "auth"}}

// decodeWorkload decodes one workload block.
func (d *decoder) decodeWorkload(b *hcl.Block) {
	w := &Workload{Name: b.Labels[0], AgentsPerClient: DefaultAgentsPerClient, DefRange: b.DefRange}
	if !d.checkName(w.Name, b.LabelRanges[0], "workload") || d.duplicate(b, "workload", d.workloadRange(w.Name)) {
		return
	}
	c := d.attrs(b.Body, []string{"scenario!", "users", "duration", "operation_count", "rate", "clients",
		"agents_per_client", "storage_url", "token"}, workloadBlocks...)
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "scenario":
			d.decodeScenario(w, a)
		case "users":
			w.Users, _ = d.integer(a, d.ctx, 1, 1<<24)
		case "duration":
			w.Duration, _ = d.duration(a, d.ctx)
		case "operation_count":
			w.OperationCount, _ = d.integer(a, d.ctx, 1, 1<<62)
		case "rate":
			if w.Rate, _ = d.number(a, d.ctx); w.Rate < 0 {
				d.errorf(a.Expr.Range().Ptr(), "Invalid value for rate", "rate must be >= 0 requests/s (0 = closed loop)")
			}
		case "clients":
			w.Clients, _ = d.strings(a, d.ctx)
			d.checkClients(a, w.Clients)
		case "agents_per_client":
			w.AgentsPerClient, _ = d.integer(a, d.ctx, 1, 1024)
		case "storage_url":
			w.StorageURL, _ = d.str(a, d.ctx)
		case "token":
			w.Token = d.secret(a, d.ctx)
		}
	}
	for i, blk := range c.Blocks {
		if i > 0 {
			d.errorf(blk.DefRange.Ptr(), "Duplicate auth block", "workload %q has more than one auth block", w.Name)
			continue
		}
		w.Auth = d.decodeAuth(blk)
	}
	d.checkWorkloadAuth(w, b, c)
	if a := c.Attributes["operation_count"]; a != nil && c.Attributes["duration"] != nil {
		d.errorf(a.NameRange.Ptr(), "Conflicting run bounds", "workload %q: give duration or operation_count, not both", w.Name)
	}
	d.tb.Workloads = append(d.tb.Workloads, w)
}

// checkWorkloadAuth requires either an auth block or storage_url and token.
func (d *decoder) checkWorkloadAuth(w *Workload, b *hcl.Block, c *hcl.BodyContent) {
	direct := c.Attributes["storage_url"] != nil || c.Attributes["token"] != nil
	switch {
	case w.Auth != nil && direct:
		d.errorf(b.DefRange.Ptr(), "Conflicting workload auth", "workload %q: give an auth block or storage_url and token, not both", w.Name)
	case w.Auth == nil && !direct:
		d.errorf(b.DefRange.Ptr(), "Missing workload auth", "workload %q needs an auth { url, user, key } block or storage_url and token", w.Name)
	case direct && (c.Attributes["storage_url"] == nil || c.Attributes["token"] == nil):
		d.errorf(b.DefRange.Ptr(), "Incomplete workload auth", "workload %q: storage_url and token go together", w.Name)
	}
}

// decodeAuth decodes an auth block.
func (d *decoder) decodeAuth(b *hcl.Block) *Auth {
	au := &Auth{Kind: "v1", DefRange: b.DefRange}
	c := d.attrs(b.Body, []string{"kind", "url!", "user!", "key!", "project", "domain"})
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "kind":
			au.Kind, _ = d.oneOf(a, d.ctx, "v1", "v3")
		case "url":
			au.URL, _ = d.str(a, d.ctx)
		case "user":
			au.User, _ = d.str(a, d.ctx)
		case "key":
			au.Key = d.secret(a, d.ctx)
		case "project":
			au.Project, _ = d.str(a, d.ctx)
		case "domain":
			au.Domain, _ = d.str(a, d.ctx)
		}
	}
	return au
}

// decodeScenario reads the scenario attribute: a string is a scenario file
// (relative to the testbed's directory), an object is the scenario inline.
// Either way the result is validated as ssbench would and kept as JSON.
func (d *decoder) decodeScenario(w *Workload, a *hcl.Attribute) {
	v, _, ok := d.value(a, d.ctx, cty.DynamicPseudoType)
	if !ok {
		return
	}
	var data []byte
	switch {
	case v.Type() == cty.String:
		w.ScenarioFile = v.AsString()
		b, err := readLimited(d.resolve(w.ScenarioFile))
		if err != nil {
			d.errorf(a.Expr.Range().Ptr(), "Cannot read scenario file", "workload %q: %s", w.Name, err)
			return
		}
		data = b
	case v.Type().IsObjectType() || v.Type().IsMapType():
		if !v.Type().IsMapType() && !v.Type().HasAttribute("name") {
			v = mergeName(v, w.Name)
		}
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			d.errorf(a.Expr.Range().Ptr(), "Invalid scenario", "workload %q: %s", w.Name, err)
			return
		}
		data = b
	default:
		d.errorf(a.Expr.Range().Ptr(), "Invalid scenario", "workload %q: scenario must be a file path or an object of ssbench scenario attributes", w.Name)
		return
	}
	if _, err := load.ParseScenario(data); err != nil {
		d.errorf(a.Expr.Range().Ptr(), "Invalid scenario", "workload %q: %s", w.Name, strings.ReplaceAll(err.Error(), "\n", "; "))
		return
	}
	w.ScenarioJSON = data
}

// mergeName adds name = workload name to an inline scenario without one.
func mergeName(v cty.Value, name string) cty.Value {
	m := v.AsValueMap()
	if m == nil {
		m = map[string]cty.Value{}
	}
	m["name"] = cty.StringVal(name)
	return cty.ObjectVal(m)
}

// readLimited reads a regular file of at most maxFileSize bytes.
func readLimited(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxFileSize {
		return nil, &os.PathError{Op: "read", Path: p, Err: errNotSmallFile}
	}
	return os.ReadFile(p)
}
