package schedule

import (
	"slices"

	"benchbed/plan"
)

// genericSteps returns one services step per generic service, with the
// settings that differ from variant prev's; a service whose settings and
// flags are prev's is Unchanged (the sweep still checks it runs and is
// healthy). In the first cell every one is pushed and restarted.
func genericSteps(tb *plan.Testbed, prev, cur *plan.Variant, first bool) []Step {
	var out []Step
	for _, g := range tb.Generics {
		st := Step{Kind: StepServices, Hosts: hostNames(tb.HostsWithRole(g.Role)), Service: g.Name, Path: g.Path}
		if !first {
			st.Changes = settingChanges(genericEffective(g, prev), genericEffective(g, cur))
			st.Unchanged = len(st.Changes) == 0 && slices.Equal(g.FlagsIn(prev), g.FlagsIn(cur)) &&
				slices.Equal(g.AfterStartIn(prev), g.AfterStartIn(cur))
		}
		out = append(out, st)
	}
	return out
}

// genericEffective is g's settings with variant v's set on top.
func genericEffective(g *plan.Generic, v *plan.Variant) plan.Settings {
	out := plan.Settings{}
	layers := []plan.Settings{g.Settings}
	if v != nil {
		layers = append(layers, v.Set[g.Name])
	}
	for _, l := range layers {
		for sec, keys := range l {
			if out[sec] == nil {
				out[sec] = map[string]plan.Setting{}
			}
			for k, val := range keys {
				out[sec][k] = val
			}
		}
	}
	return out
}

// backupHosts are the hosts whose files the sweep backs up: those of its
// Swift and generic services.
func backupHosts(tb *plan.Testbed) []string {
	out := serviceHosts(tb)
	for _, h := range tb.Hosts {
		for _, g := range tb.Generics {
			if h.HasRole(g.Role) && !slices.Contains(out, h.Name) {
				out = append(out, h.Name)
			}
		}
	}
	return out
}
