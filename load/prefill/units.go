package prefill

// Unit is a share of one container's objects: positions [From, To), where
// the object at position p is number container + p * container_count.
type Unit struct {
	Container int
	From, To  int64
}

// maxUnit bounds a unit, so that a checkpoint loses little when a prefill
// is killed.
const maxUnit = 50000

// minUnits is how many units a layout is cut into at least, so that many
// workers share even one container. Units do not depend on the concurrency:
// a checkpoint stays valid when a resumed prefill runs with another.
const minUnits = 256

// unitsIn is how many units container c is cut into: enough for minUnits
// overall, and none larger than maxUnit.
func (l *Layout) unitsIn(c int) int {
	per := (minUnits + len(l.containers) - 1) / len(l.containers)
	n := l.InContainer(c)
	per = max(per, int((n+maxUnit-1)/maxUnit), 1)
	return int(min(int64(per), max(n, 1)))
}

// Units cuts every container into units, container by container, so that
// the containers in progress at once stay few.
func (l *Layout) Units() []Unit {
	var out []Unit
	for c := range l.containers {
		n := l.InContainer(c)
		parts := int64(l.unitsIn(c))
		for j := int64(0); j < parts; j++ {
			out = append(out, Unit{Container: c, From: n * j / parts, To: n * (j + 1) / parts})
		}
	}
	return out
}

// ObjectsIn returns how many objects the numbered units hold (numbers
// outside the layout count for nothing).
func (l *Layout) ObjectsIn(units []int) int64 {
	all := l.Units()
	var n int64
	for _, i := range units {
		if i >= 0 && i < len(all) {
			n += all[i].To - all[i].From
		}
	}
	return n
}
