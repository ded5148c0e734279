"""Summarises bench/loadgen/run's outputs: req/s per run, medians, ratios,
client CPU per request, peak RSS and the machine's load average during the
runs. Usage: report.py OUTDIR ROUNDS DURATION"""
import json
import re
import statistics
import sys

work, rounds, duration = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
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
rps, n, cpu, rss = run("benchbed", "rss")
print(f"benchbed, 2048 users: {rps:.1f} req/s, {cpu / max(n, 1) * 1e6:.1f} us CPU/request,"
      f" max RSS {rss / 1024:.1f} MiB (target <= 64 MiB: {'meets' if rss <= 64 * 1024 else 'misses'})")
rps, n, cpu, rss = run("benchbed", "profile")
print(f"benchbed with its CPU profile, 64 users (not counted): {rps:.1f} req/s, {cpu / max(n, 1) * 1e6:.1f} us CPU/request")
loads = [float(line.split()[2]) for line in open(f"{work}/loadavg")]
print(f"machine load average (1 min) at each run's start and the end: min {min(loads):.2f},"
      f" median {statistics.median(loads):.2f}, max {max(loads):.2f} ({len(loads)} samples, 2 cores)")
