package decode

import (
	"encoding/json"
	"net/url"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// workloadPolicy decodes a scenario workload's policy and verify
// attributes: policy (a policy name or alias) is written into the
// scenario's policy field, so that its containers are created in that
// policy (X-Storage-Policy) and named after it as ssbench names them;
// without it the scenario's own policy field counts. verify defaults to on
// when the workload's policy is erasure-coded (VerifyWhy says which; a
// fault cell's default is plan.Workload.VerifyIn's).
func (d *decoder) workloadPolicy(w *plan.Workload, b *hcl.Block, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	w.PolicyRange = b.DefRange
	if a := c.Attributes["policy"]; a != nil {
		w.PolicyRange = a.Expr.Range()
		name, ok := d.Str(a, ctx)
		if !ok {
			return
		}
		if _, set := w.ScenarioSet["policy"]; set {
			d.Errorf(a.NameRange.Ptr(), "Conflicting policy", "workload %q: give policy or scenario_set's policy, not both", w.Name)
			return
		}
		if w.ScenarioJSON != nil {
			data, err := setScenarioField(w.ScenarioJSON, "policy", name)
			if err != nil {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid scenario", "workload %q: %s", w.Name, err)
				return
			}
			w.ScenarioJSON = data
		}
		w.Policy = name
	} else if w.ScenarioJSON != nil {
		var s struct {
			Policy string `json:"policy"`
		}
		_ = json.Unmarshal(w.ScenarioJSON, &s) // checked by decodeScenario
		w.Policy = s.Policy
	}
	if p := d.tb.Policy(w.Policy); p != nil && p.IsEC() {
		w.Verify, w.VerifyWhy = true, plan.VerifyEC
	}
	if a := c.Attributes["verify"]; a != nil {
		w.Verify, _ = d.Bool(a, ctx)
		w.VerifyWhy = plan.VerifyGivenOff
		if w.Verify {
			w.VerifyWhy = plan.VerifyGivenOn
		}
	}
	if a := c.Attributes["endpoints"]; a != nil {
		w.Endpoints, _ = d.Strings(a, ctx)
		d.checkEndpoints(w, a)
	}
}

// checkEndpoints requires http(s) URLs, each once, at least one.
func (d *decoder) checkEndpoints(w *plan.Workload, a *hcl.Attribute) {
	if len(w.Endpoints) == 0 {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for endpoints", "workload %q: endpoints lists no URL (leave it out for the auth or storage URL alone)", w.Name)
	}
	d.CheckUnique(a, w.Endpoints, "endpoint")
	for _, e := range w.Endpoints {
		if u, err := url.Parse(e); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for endpoints", "workload %q: endpoint %q is no http:// or https:// URL", w.Name, e)
		}
	}
}

// setScenarioField sets the top-level field key of the scenario JSON data
// to value, keeping every other field as written.
func setScenarioField(data []byte, key string, value any) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	m[key] = raw
	return json.Marshal(m)
}
