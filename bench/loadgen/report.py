"""Summarises bench/loadgen/run's outputs: req/s per run, medians, ratios,
client CPU per request, peak RSS and the machine's load average during the
runs, and the paired rounds' ratios (benchbed and wrk back to back).
Usage: report.py OUTDIR ROUNDS DURATION [PAIRS PAIR_SECONDS]"""
import json
import re
import statistics
import sys

work, rounds, duration = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
pairs = int(sys.argv[4]) if len(sys.argv) > 4 else 0
pair_seconds = float(sys.argv[5]) if len(sys.argv) > 5 else duration
TARGETS = {"wrk": 1.0, "hey": 1.2, "vegeta": 1.1}


def parse(tool, out):
    """Returns (req/s, successful requests) of one run's output."""
    if tool == "benchbed":
        c = json.loads(out)
        return c["total"]["req_per_s"], c["total"]["count"]
    if tool == "vegeta":
        r = json.loads(out)
        ok = round(r["requests"] * r["success"])
        return r["throughput"], ok
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    if tool == "wrk":
        n = int(re.search(r"(\d+) requests in", out).group(1))
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        return rps, n - (int(bad.group(1)) if bad else 0)
    return rps, sum(int(x) for x in re.findall(r"\[200\]\s+(\d+) responses", out))


def run(tool, rnd):
    out = open(f"{work}/{tool}.{rnd}.out").read()
    cpu, rss = open(f"{work}/{tool}.{rnd}.rusage").read().split()
    rps, n = parse(tool, out)
    return rps, n, float(cpu), int(rss)


print(f"64 KiB GETs from nginx-light on 127.0.0.1, 64 connections, {duration:.0f} s a run, {rounds} rounds")
print("machine: 2 cores shared with other engineers' work; client and server on the same cores")
print(f"{'client':10} {'round':>5} {'req/s':>10} {'requests':>10} {'cpu s':>7} {'cpu us/req':>10} {'max RSS MiB':>11}")
med, cpu_med = {}, {}
for tool in ["benchbed", "wrk", "hey", "vegeta"]:
    rates, cpus = [], []
    for rnd in range(1, rounds + 1):
        rps, n, cpu, rss = run(tool, rnd)
        rates.append(rps)
        cpus.append(cpu / max(n, 1) * 1e6)
        print(f"{tool:10} {rnd:>5} {rps:>10.1f} {n:>10} {cpu:>7.2f} {cpu / max(n, 1) * 1e6:>10.1f} {rss / 1024:>11.1f}")
    med[tool] = statistics.median(rates)
    cpu_med[tool] = statistics.median(cpus)
print()
for tool, target in TARGETS.items():
    ratio = med["benchbed"] / med[tool]
    verdict = "meets" if ratio >= target else "misses"
    print(f"benchbed / {tool:7} median req/s: {med['benchbed']:.1f} / {med[tool]:.1f} = {ratio:.2f}x"
          f" (target >= {target}x: {verdict})")
ratio = cpu_med["benchbed"] / cpu_med["wrk"]
print(f"benchbed / wrk     median client CPU per request: {cpu_med['benchbed']:.1f} / {cpu_med['wrk']:.1f} us"
      f" = {ratio:.2f}x (target <= 1.0x: {'meets' if ratio <= 1.0 else 'misses'})")
if pairs:
    print()
    print(f"{pairs} pairs, benchbed and wrk back to back, {pair_seconds:.0f} s each, the order alternating (ABBA):")
    print(f"{'pair':>4} {'benchbed req/s':>14} {'wrk req/s':>10} {'ratio':>6} {'benchbed us/req':>15} {'wrk us/req':>10} {'ratio':>6}")
    rate_ratios, cpu_ratios = [], []
    for p in range(1, pairs + 1):
        b, w = run("benchbed", f"pair{p}"), run("wrk", f"pair{p}")
        bcpu, wcpu = b[2] / max(b[1], 1) * 1e6, w[2] / max(w[1], 1) * 1e6
        rate_ratios.append(b[0] / w[0])
        cpu_ratios.append(bcpu / wcpu)
        print(f"{p:>4} {b[0]:>14.1f} {w[0]:>10.1f} {rate_ratios[-1]:>6.2f} {bcpu:>15.1f} {wcpu:>10.1f} {cpu_ratios[-1]:>6.2f}")

    def spread(xs):
        """The median and the quartiles of xs, as text."""
        if len(xs) < 2:
            return f"{xs[0]:.2f}x"
        q1, q2, q3 = statistics.quantiles(xs, n=4)
        return f"{statistics.median(xs):.2f}x (quartiles {q1:.2f}-{q3:.2f})"

    faster = sum(r >= 1 for r in rate_ratios)
    cheaper = sum(r <= 1 for r in cpu_ratios)
    print(f"paired benchbed / wrk req/s: median {spread(rate_ratios)}, benchbed at least as fast in {faster} of {pairs}"
          f" (target >= 1.0x: {'meets' if statistics.median(rate_ratios) >= 1.0 else 'misses'})")
    print(f"paired benchbed / wrk client CPU per request: median {spread(cpu_ratios)}, benchbed at most as costly in"
          f" {cheaper} of {pairs} (target <= 1.0x: {'meets' if statistics.median(cpu_ratios) <= 1.0 else 'misses'})")
rps, n, cpu, rss = run("benchbed", "rss")
print(f"benchbed, 2048 users: {rps:.1f} req/s, {cpu / max(n, 1) * 1e6:.1f} us CPU/request,"
      f" max RSS {rss / 1024:.1f} MiB (target <= 64 MiB: {'meets' if rss <= 64 * 1024 else 'misses'})")
rps, n, cpu, rss = run("benchbed", "profile")
print(f"benchbed with its CPU profile, 64 users (not counted): {rps:.1f} req/s, {cpu / max(n, 1) * 1e6:.1f} us CPU/request")


def syscalls(tool):
    """Returns (requests, {syscall: (calls, errors)}) of the tool's strace -c run, or None."""
    try:
        table = open(f"{work}/{tool}.strace").read()
        n = parse(tool, open(f"{work}/{tool}.strace.out").read())[1]
    except (OSError, ValueError, AttributeError):
        return None
    calls = {}
    for line in table.splitlines():
        f = line.split()
        if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
            calls[f[-1]] = (int(f[3]), int(f[4]) if len(f) == 6 else 0)
    return n, calls


for tool in ["benchbed", "wrk"]:
    got = syscalls(tool)
    if got is None:
        continue
    n, calls = got
    per = sorted(((c / max(n, 1), e / max(n, 1), name) for name, (c, e) in calls.items()), reverse=True)
    top = ", ".join(f"{name} {c:.2f}" + (f" ({e:.2f} failed)" if e else "") for c, e, name in per if c >= 0.05)
    print(f"{tool} under strace -c, {n} requests: system calls per request {sum(c for c, _, _ in per):.2f}: {top}")
loads = [float(line.split()[2]) for line in open(f"{work}/loadavg")]
print(f"machine load average (1 min) at each run's start and the end: min {min(loads):.2f},"
      f" median {statistics.median(loads):.2f}, max {max(loads):.2f} ({len(loads)} samples, 2 cores)")
