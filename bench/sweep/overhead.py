#!/usr/bin/env python3
"""Per-cell overhead of a sweep, from its run directory's journal.

Usage: overhead.py RUN_DIR WARMUP_S RUN_S

A cell's wall time runs from its first step's start to its "run" step's
end; its overhead is that minus the configured warm-up and run time. The
steps' own durations show where the overhead goes (the warm-up and run
steps' time beyond their configured length is the agents' start, the
shared start lead and the collection). The floor beside it is the cell's
restart, reload and health steps: what its changes cost at least. Run-wide steps
(preflight, lock, environment, backup, prefill, restore) are listed apart.
"""
import json
import sys
from datetime import datetime


def ts(s):
    """Parses Go's RFC 3339 UTC time (nanoseconds cut to microseconds)."""
    s = s.rstrip("Z")
    if "." in s:
        base, frac = s.split(".")
        s = base + "." + frac[:6].ljust(6, "0")
    return datetime.fromisoformat(s)


def main():
    run_dir, warmup, run = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    cells, order, wide = {}, [], {}
    started = {}
    for line in open(run_dir + "/journal.jsonl"):
        e = json.loads(line)
        key = (e.get("cell", ""), e["step"])
        t = ts(e["time"])
        if e["status"] == "started":
            started[key] = t
            continue
        if key not in started:
            continue
        d = (t - started[key]).total_seconds()
        cell = e.get("cell", "")
        if not cell:
            wide[e["step"]] = wide.get(e["step"], 0) + d
            continue
        if cell not in cells:
            cells[cell] = {"first": started[key], "steps": {}, "status": "?"}
            order.append(cell)
        c = cells[cell]
        c["first"] = min(c["first"], started[key])
        c["steps"][e["step"]] = d
        if e["step"] == "run":
            c["end"], c["status"] = t, e["status"]
    print("| cell | status | wall s | warm-up+run s | overhead s | floor s | steps (s) |")
    print("|---|---|---:|---:|---:|---:|---|")
    overs = []
    for name in order:
        c = cells[name]
        if "end" not in c:
            print(f"| {name} | unfinished | | | | | |")
            continue
        wall = (c["end"] - c["first"]).total_seconds()
        over = wall - warmup - run
        overs.append(over)
        # The floor: what the cell's changes cost at least, its servers'
        # restart or reload and the health wait that follows.
        floor = sum(c["steps"].get(k, 0) for k in ("restart", "reload", "health"))
        steps = ", ".join(f"{k} {v:.1f}" for k, v in c["steps"].items())
        print(f"| {name} | {c['status']} | {wall:.1f} | {warmup + run:.1f} | {over:.1f} | {floor:.1f} | {steps} |")
    if overs:
        rest = sorted(overs[1:])
        med = rest[len(rest) // 2] if len(rest) % 2 else (sum(rest[len(rest) // 2 - 1:len(rest) // 2 + 1]) / 2 if rest else 0)
        print(f"\nfirst cell's overhead: {overs[0]:.1f} s (target <= 8 s)")
        if rest:
            print(f"median overhead per cell after the first: {med:.1f} s (target <= 4 s)")
        print(f"mean overhead per cell: {sum(overs) / len(overs):.1f} s")
    print("run-wide steps: " + ", ".join(f"{k} {v:.1f} s" for k, v in wide.items()))
    restore = wide.get("undo-backup", wide.get("restore", 0))
    print(f"final restore: {restore:.1f} s (target <= 5 s)")


main()
