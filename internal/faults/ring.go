package faults

import (
	"errors"
	"fmt"
	"path"

	"benchbed/remote"
)

// rebalancePy runs swift-ring-builder's set_weight,
// pretend_min_part_hours_passed and rebalance (argv: builder, device,
// weight) in one Python process: each start of the command imports Swift
// again (about 1 s each at load average 10, 0.3 s on a quiet machine). It
// exits 10 when this python3 has no Swift (the script then runs the command
// three times, as without a python3), 11 when set_weight fails, and 20 plus rebalance's status
// (0 done, 1 a warning, 2 an error) otherwise.
const rebalancePy = `import contextlib, io, sys, traceback
try:
    from swift.cli.ringbuilder import main
except ImportError:
    sys.exit(10)
builder, dev, weight = sys.argv[1:]
def run(*args, quiet=True):
    try:
        with contextlib.redirect_stdout(io.StringIO() if quiet else sys.stdout):
            main(["swift-ring-builder", builder] + list(args))
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except Exception:
        traceback.print_exc()
        return 2
    return 0
if run("set_weight", dev, weight) != 0:
    sys.exit(11)
run("pretend_min_part_hours_passed")
sys.exit(20 + min(run("rebalance", quiet=False), 2))`

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
rc=10
if command -v python3 >/dev/null 2>&1; then
  rc=0
  python3 - %[1]s %[4]s %[5]g <<'PY' || rc=$?
%[9]s
PY
fi
if [ $rc -eq 10 ]; then
  %[3]s set_weight %[4]s %[5]g >/dev/null || { %[6]s; }
  %[3]s pretend_min_part_hours_passed >/dev/null
  rc=0; %[3]s rebalance || rc=$?
  rc=$((rc + 20))
fi
[ $rc -ne 11 ] || { %[6]s; }
[ $rc -eq 20 ] || [ $rc -eq 21 ] || { %[7]s; }
`, builder, ring, srb, remote.Quote(r.Device), r.Weight, fail(kind, "set_weight "+r.Device+" failed"), fail(kind, "rebalance failed (status $rc)"),
		fail(kind, "an earlier rebalance is not undone: its original builder is still aside"), rebalancePy)
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
