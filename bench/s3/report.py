"""Summarises bench/s3/run's outputs: per round, req/s and client CPU per
request of benchbed on Swift's API, on S3 and of wrk, and the S3/Swift
ratio of CPU per request; their median and quartiles; peak RSS at 2048
users; the machine's load average during the runs.
Usage: report.py OUTDIR PAIRS"""
import json
import re
import statistics
import sys

work, pairs = sys.argv[1], int(sys.argv[2])
TARGET = 1.2


def run(tool, rnd):
    out = open(f"{work}/{tool}.{rnd}.out").read()
    cpu, rss = open(f"{work}/{tool}.{rnd}.rusage").read().split()
    if tool == "wrk":
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        n = int(re.search(r"(\d+) requests in", out).group(1))
        errors = 0
    else:
        c = json.loads(out)
        rps, n, errors = c["total"]["req_per_s"], c["total"]["count"], c["total"]["errors"]
    return rps, n, errors, float(cpu), int(rss)


def quartiles(xs):
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return f"median {q[1]:.3f} (quartiles {q[0]:.3f} .. {q[2]:.3f})"


print("64 KiB GETs from nginx-light on 127.0.0.1, 64 users/connections; client CPU = user+sys of the client process")
print()
print("| round | swift req/s | swift µs CPU/req | s3 req/s | s3 µs CPU/req | wrk req/s | wrk µs CPU/req | s3/swift CPU/req |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
ratios, sw_us, s3_us, wrk_us = [], [], [], []
for p in range(1, pairs + 1):
    sw, s3, wk = run("swift", p), run("s3", p), run("wrk", p)
    if sw[2] or s3[2]:
        print(f"round {p}: errors (swift {sw[2]}, s3 {s3[2]}): not counted")
        continue
    a, b, c = sw[3] / sw[1] * 1e6, s3[3] / s3[1] * 1e6, wk[3] / wk[1] * 1e6
    sw_us.append(a)
    s3_us.append(b)
    wrk_us.append(c)
    ratios.append(b / a)
    print(f"| {p} | {sw[0]:.0f} | {a:.1f} | {s3[0]:.0f} | {b:.1f} | {wk[0]:.0f} | {c:.1f} | {b / a:.3f} |")
print()
print(f"swift µs CPU/request: {quartiles(sw_us)}")
print(f"s3    µs CPU/request: {quartiles(s3_us)}")
print(f"wrk   µs CPU/request: {quartiles(wrk_us)}")
print(f"s3/swift CPU per request: {quartiles(ratios)}; target at most {TARGET}: "
      f"{'met' if statistics.median(ratios) <= TARGET else 'NOT met'}")
for tool in ("swift", "s3"):
    rps, n, errors, cpu, rss = run(tool, "rss")
    print(f"{tool} with 2048 users: {rps:.0f} req/s, {errors} errors, peak RSS {rss / 1024:.1f} MiB")
print()
print("load average (1, 5, 15 min) at each run's start:")
print(open(f"{work}/loadavg").read().rstrip())
