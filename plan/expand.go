package plan

import (
	"fmt"
	"slices"
	"strings"
)

// Expand returns the cells of the matrix: every variant times every workload
// that runs on it (Workload.RunsOn) times its planned repeats (sweep.repeat;
// a repeat = "auto" workload's minimum: Testbed.Repeats), in declaration
// order (variant, then workload, then repeat; with sweep.interleave repeat
// first, then variant, then workload, each round's variants rotated one
// further than the round before's), numbered without gaps. It is a pure
// function of tb: the same testbed gives the same cells with the same ids.
// The repeats an "auto" workload may add are schedule.Rounds'.
func Expand(tb *Testbed) []Cell {
	var cells []Cell
	add := func(v *Variant, w *Workload, r int) {
		i := len(cells) + 1
		cells = append(cells, Cell{ID: CellID(i, v.Name, w.Name, r), Index: i, Variant: v, Workload: w, Repeat: r})
	}
	if tb.Sweep.Interleave {
		for r := 1; r <= tb.maxRepeats(); r++ {
			tb.eachPairFrom(r-1, func(v *Variant, w *Workload, repeat int) {
				if r <= repeat {
					add(v, w, r)
				}
			})
		}
		return cells
	}
	tb.eachPair(func(v *Variant, w *Workload, repeat int) {
		for r := 1; r <= repeat; r++ {
			add(v, w, r)
		}
	})
	return cells
}

// eachPair calls fn for every variant and workload that runs on it, in
// declaration order, with the workload's planned repeats.
func (tb *Testbed) eachPair(fn func(v *Variant, w *Workload, repeat int)) {
	for _, v := range tb.Variants {
		for _, w := range tb.Workloads {
			if w.RunsOn(v) {
				repeat, _ := tb.Repeats(w)
				fn(v, w, repeat)
			}
		}
	}
}

// eachPairFrom calls fn as eachPair does, the variants rotated to start
// at the shift-th (modulo their number): round r of interleaved repeats
// starts one variant later than round r-1, so that no variant always runs
// first in its round and a drift within rounds does not always favour one.
func (tb *Testbed) eachPairFrom(shift int, fn func(v *Variant, w *Workload, repeat int)) {
	for _, v := range tb.RoundVariants(shift + 1) {
		for _, w := range tb.Workloads {
			if w.RunsOn(v) {
				repeat, _ := tb.Repeats(w)
				fn(v, w, repeat)
			}
		}
	}
}

// RoundVariants are the variants in the order round r of interleaved
// repeats runs them: rotated to start at the r-th (modulo their number).
func (tb *Testbed) RoundVariants(r int) []*Variant {
	n := len(tb.Variants)
	out := make([]*Variant, n)
	for i := range n {
		out[i] = tb.Variants[(i+r-1)%n]
	}
	return out
}

// maxRepeats is the most planned repeats of any workload.
func (tb *Testbed) maxRepeats() int {
	most := 0
	for _, w := range tb.Workloads {
		r, _ := tb.Repeats(w)
		most = max(most, r)
	}
	return most
}

// RunsOn reports whether w runs on variant v: its variants attribute names
// v, or it has none. With Variants set by SetVariants it is a map lookup,
// so that a matrix of thousands of variants is checked in linear time.
func (w *Workload) RunsOn(v *Variant) bool {
	switch {
	case w.Variants == nil:
		return true
	case w.variantSet != nil:
		return w.variantSet[v.Name]
	}
	return slices.Contains(w.Variants, v.Name)
}

// SetVariants sets the names of the variants w runs on (nil: every
// variant), indexed for RunsOn.
func (w *Workload) SetVariants(names []string) {
	w.Variants, w.variantSet = names, nil
	if names != nil {
		w.variantSet = make(map[string]bool, len(names))
		for _, n := range names {
			w.variantSet[n] = true
		}
	}
}

// VariantsOf returns the variants w runs on, in declaration order: the
// first is the baseline its repeat = "auto" compares the others with.
func (tb *Testbed) VariantsOf(w *Workload) []*Variant {
	var out []*Variant
	for _, v := range tb.Variants {
		if w.RunsOn(v) {
			out = append(out, v)
		}
	}
	return out
}

// WorkloadsOn returns the workloads that run on variant v, in declaration
// order.
func (tb *Testbed) WorkloadsOn(v *Variant) []*Workload {
	var out []*Workload
	for _, w := range tb.Workloads {
		if w.RunsOn(v) {
			out = append(out, w)
		}
	}
	return out
}

// CellID returns the stable id of a cell: "<index>-<variant>-<workload>-r<repeat>",
// index zero-padded to three digits, every character other than letters,
// digits, '.', '_' and '-' replaced by '_', so that it is a safe file name.
func CellID(index int, variant, workload string, repeat int) string {
	return fmt.Sprintf("%03d-%s-%s-r%d", index, sanitize(variant), sanitize(workload), repeat)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// CheckOnly checks a sweep's --only list: each name a variant that some
// workload runs on.
func (tb *Testbed) CheckOnly(only []string) error {
	for _, n := range only {
		switch v := tb.Variant(n); {
		case v == nil:
			return fmt.Errorf("--only %s: %s has no such variant", n, tb.File)
		case len(tb.WorkloadsOn(v)) == 0:
			return fmt.Errorf("--only %s: no workload of %s runs on it (their variants attributes leave it out)", n, tb.File)
		}
	}
	return nil
}

// Swept is tb as a sweep of the variants only names (nil: all) runs it,
// for its prefill and preconditions: a copy with only the workloads that
// run on one of them. Its other fields are tb's own.
func (tb *Testbed) Swept(only []string) *Testbed {
	cp := *tb
	cp.Workloads = nil
	for _, w := range tb.Workloads {
		for _, v := range tb.Variants {
			if w.RunsOn(v) && (len(only) == 0 || slices.Contains(only, v.Name)) {
				cp.Workloads = append(cp.Workloads, w)
				break
			}
		}
	}
	return &cp
}
