package faults

import (
	"errors"
	"fmt"
	"path"

	"benchbed/remote"
)

// rebalance re-weights one device in the ring's builder, rebalances it
// (with min_part_hours pretended passed, so partitions move at once) and
// leaves the new ring beside the builder for the sweep to push to every
// host; the undo puts the original builder and ring back, for the sweep to
// push again. The checksums of the originals are in "$state.sum" until the
// undo finds the originals back (else the check says they differ).
func rebalance(t Target) (Scripts, error) {
	r, kind := t.Ring, t.Fault.Kind
	if r.Name == "" || r.Device == "" {
		return Scripts{}, errors.New("no ring or device")
	}
	dir := or(r.Dir, "/etc/swift")
	builder := remote.Quote(path.Join(dir, r.Name+".builder"))
	ring := remote.Quote(path.Join(dir, r.Name+".ring.gz"))
	srb := "swift-ring-builder " + builder
	probe := fmt.Sprintf(`command -v swift-ring-builder >/dev/null 2>&1 || { %[3]s; }
[ -f %[1]s ] && [ -f %[2]s ] || { %[4]s; }
%[5]s search %[6]s >/dev/null || { %[7]s; }
`, builder, ring, fail(kind, "no swift-ring-builder"), fail(kind, "no "+r.Name+" builder and ring in "+dir),
		srb, remote.Quote(r.Device), fail(kind, "ring "+r.Name+" has no device "+r.Device))
	apply := fmt.Sprintf(`[ ! -f "$state.builder" ] || { %[8]s; }
cp -p %[1]s "$state.builder" && cp -p %[2]s "$state.ring.gz" || exit 1
md5sum %[1]s %[2]s > "$state.sum"
%[3]s set_weight %[4]s %[5]g >/dev/null || { %[6]s; }
%[3]s pretend_min_part_hours_passed >/dev/null
%[3]s rebalance; rc=$?
[ $rc -le 1 ] || { %[7]s; }
`, builder, ring, srb, remote.Quote(r.Device), r.Weight, fail(kind, "set_weight "+r.Device+" failed"), fail(kind, "rebalance exited $rc"),
		fail(kind, "an earlier rebalance is not undone: its original builder is still aside"))
	undo := fmt.Sprintf(`if [ -f "$state.builder" ] && [ -f "$state.ring.gz" ]; then
  cp -p "$state.builder" %[1]s && cp -p "$state.ring.gz" %[2]s && rm -f "$state.builder" "$state.ring.gz"
fi
[ -f "$state.builder" ] || [ ! -f "$state.sum" ] || ! md5sum -c --quiet "$state.sum" >/dev/null 2>&1 || rm -f "$state.sum"
`, builder, ring)
	check := fmt.Sprintf(`[ ! -f "$state.builder" ] || { %s; }
[ ! -f "$state.sum" ] || md5sum -c --quiet "$state.sum" >/dev/null 2>&1 || { %s; }
`, fail(kind, "the original builder is still aside"), fail(kind, "the "+r.Name+" builder or ring differs from the original"))
	return Scripts{Probe: probe, Apply: apply, Undo: undo, Check: check}, nil
}
