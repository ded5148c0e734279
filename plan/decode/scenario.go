package decode

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"benchbed/plan"
	"benchbed/plan/scenario"
)

// decodeScenario reads the scenario attribute a: a string is a scenario
// file (relative to the testbed's directory), an object is the scenario
// inline. The scenario_set attribute set (nil when absent) then overrides
// fields of it. The result is validated as ssbench would and kept as JSON.
func (d *decoder) decodeScenario(w *plan.Workload, a, set *hcl.Attribute, ctx *hcl.EvalContext) {
	v, _, ok := d.Value(a, ctx, cty.DynamicPseudoType)
	if !ok {
		return
	}
	var data []byte
	switch {
	case v.Type() == cty.String:
		w.ScenarioFile = v.AsString()
		b, err := readLimited(d.Resolve(w.ScenarioFile))
		if err != nil {
			d.Errorf(a.Expr.Range().Ptr(), "Cannot read scenario file", "workload %q: %s", w.Name, err)
			return
		}
		data = b
	case v.Type().IsObjectType() || v.Type().IsMapType():
		if !v.Type().IsMapType() && !v.Type().HasAttribute("name") {
			v = mergeName(v, w.Name)
		}
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid scenario", "workload %q: %s", w.Name, err)
			return
		}
		data = b
	default:
		d.Errorf(a.Expr.Range().Ptr(), "Invalid scenario", "workload %q: scenario must be a file path or an object of ssbench scenario attributes", w.Name)
		return
	}
	file := ""
	if w.ScenarioFile != "" {
		file = d.Resolve(w.ScenarioFile)
	}
	if !d.checkScenario(w, data, a.Expr.Range(), file) {
		return
	}
	if set != nil {
		if data, ok = d.applyScenarioSet(w, data, set, ctx); !ok || !d.checkScenario(w, data, set.Expr.Range(), "") {
			return
		}
	}
	w.ScenarioJSON = data
}

// checkScenario parses data as ssbench would and reports each of its
// problems: read from file (not ""), a field's problem at its line there,
// with rng (where the testbed names the file) as context; else at rng.
func (d *decoder) checkScenario(w *plan.Workload, data []byte, rng hcl.Range, file string) bool {
	_, err := scenario.Parse(data)
	if err == nil {
		return true
	}
	if file == "" { // every problem at rng: one diagnostic
		d.Errorf(rng.Ptr(), "Invalid scenario", "workload %q: %s", w.Name, strings.ReplaceAll(err.Error(), "\n", "; "))
		return false
	}
	for _, e := range scenario.Unjoin(err) {
		subject := rng
		var fe *scenario.FieldError
		if errors.As(e, &fe) {
			line, col := fe.Position(data)
			pos := hcl.Pos{Line: line, Column: col}
			subject = hcl.Range{Filename: file, Start: pos, End: pos}
		}
		d.Diags = append(d.Diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid scenario",
			Detail:  fmt.Sprintf("workload %q: %s", w.Name, strings.ReplaceAll(e.Error(), "\n", "; ")),
			Subject: subject.Ptr(), Context: rng.Ptr()})
	}
	return false
}

// applyScenarioSet overrides fields of the scenario JSON data with the
// scenario_set object: each key must be a field of an ssbench scenario and
// each value of that field's type. The overrides are kept in
// w.ScenarioSet. Written as an object constructor every problem points at
// its own item; otherwise at the whole expression.
func (d *decoder) applyScenarioSet(w *plan.Workload, data []byte, set *hcl.Attribute, ctx *hcl.EvalContext) ([]byte, bool) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		d.Errorf(set.Expr.Range().Ptr(), "Invalid scenario", "workload %q: scenario: %s", w.Name, err)
		return nil, false
	}
	items, ok := d.scenarioSetItems(set, ctx)
	if !ok {
		return nil, false
	}
	w.ScenarioSet = map[string]string{}
	ok = true
	for _, it := range items {
		raw, err := scenarioFieldJSON(it.key, it.value)
		if err != nil {
			who := w.Name
			if errors.Is(err, errUnknownField) {
				who = w.Block // the same for every axis point: reported once
			}
			d.Errorf(it.rng.Ptr(), it.summary(err), "workload %q: scenario_set: %s", who, err)
			ok = false
			continue
		}
		fields[it.key] = raw
		w.ScenarioSet[it.key] = string(raw)
	}
	if !ok {
		return nil, false
	}
	out, err := json.Marshal(fields)
	if err != nil {
		d.Errorf(set.Expr.Range().Ptr(), "Invalid scenario", "workload %q: %s", w.Name, err)
		return nil, false
	}
	return out, d.checkKept(w, out, items)
}

// checkKept reports an override that ssbench's defaults replace: a zero
// container_count, for one, means "unset" and runs with 100 containers.
// A scenario that does not parse is left to checkScenario.
func (d *decoder) checkKept(w *plan.Workload, data []byte, items []setItem) bool {
	sc, err := scenario.Parse(data)
	if err != nil {
		return true
	}
	b, err := json.Marshal(sc)
	if err != nil {
		return true
	}
	var used map[string]any
	if json.Unmarshal(b, &used) != nil {
		return true
	}
	ok := true
	for _, it := range items {
		var want any
		if json.Unmarshal([]byte(w.ScenarioSet[it.key]), &want) != nil || reflect.DeepEqual(want, used[it.key]) {
			continue
		}
		got, _ := json.Marshal(used[it.key])
		d.Errorf(it.rng.Ptr(), "Invalid value for scenario_set",
			"workload %q: scenario_set: %s = %s means unset to ssbench, and the scenario would run with %s; give the value to use",
			w.Name, it.key, w.ScenarioSet[it.key], got)
		ok = false
	}
	return ok
}

// setItem is one key = value of scenario_set with where it was written.
type setItem struct {
	key   string
	value cty.Value
	rng   hcl.Range
}

var errUnknownField = errors.New("unknown scenario field")

func (it setItem) summary(err error) string {
	if errors.Is(err, errUnknownField) {
		return "Unknown scenario field"
	}
	return "Invalid value for scenario_set"
}

// scenarioSetItems evaluates scenario_set into its items, in source order
// for an object constructor, else in key order.
func (d *decoder) scenarioSetItems(set *hcl.Attribute, ctx *hcl.EvalContext) ([]setItem, bool) {
	var out []setItem
	if obj, ok := set.Expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, item := range obj.Items {
			key, ok := d.objectKey(item.KeyExpr, ctx)
			if !ok {
				return nil, false
			}
			v, diags := d.Eval(item.ValueExpr, ctx)
			d.Diags = append(d.Diags, diags...)
			if diags.HasErrors() || !v.IsWhollyKnown() {
				return nil, false
			}
			v, _ = v.UnmarkDeep()
			out = append(out, setItem{key: key, value: v, rng: hcl.RangeBetween(item.KeyExpr.Range(), item.ValueExpr.Range())})
		}
		return out, true
	}
	v, _, ok := d.objectValue(set.Expr, ctx, "scenario_set")
	if !ok {
		return nil, false
	}
	v, _ = v.UnmarkDeep()
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		out = append(out, setItem{key: k.AsString(), value: e, rng: set.Expr.Range()})
	}
	return out, true
}

// scenarioFieldJSON returns v as the JSON of scenario field key, checking
// that the field exists and that v has its type.
func scenarioFieldJSON(key string, v cty.Value) (json.RawMessage, error) {
	known := scenarioFields()
	if !slices.Contains(known, key) {
		return nil, fmt.Errorf("%w %q; an ssbench scenario has %s", errUnknownField, key, strings.Join(known, ", "))
	}
	if v.IsNull() {
		return nil, fmt.Errorf("%s must not be null", key)
	}
	raw, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", key, err)
	}
	probe, _ := json.Marshal(map[string]json.RawMessage{key: raw})
	var sc scenario.Scenario
	if err := json.Unmarshal(probe, &sc); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("%s must be a JSON %s, got a %s (%s)", key, te.Type, te.Value, raw)
		}
		return nil, fmt.Errorf("%s: %v", key, err)
	}
	return raw, nil
}

// scenarioFields lists the JSON names of an ssbench scenario's fields, as
// scenario.Parse knows them, sorted.
func scenarioFields() []string {
	t := reflect.TypeFor[scenario.Scenario]()
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
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
