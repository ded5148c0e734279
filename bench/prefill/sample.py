#!/usr/bin/env python3
"""Samples a process's peak RSS (VmHWM) and CPU time until it exits.

Usage: sample.py PATTERN OUT -- waits for a process whose program (argv[0])
matches the regular expression PATTERN and whose argv[1] is "prefill-agent"
(not a shell whose command line merely mentions it), then polls /proc every
50 ms and writes "peak_rss_kib cpu_seconds" to OUT when it is gone.
"""
import os, re, sys, time

pat, out = re.compile(sys.argv[1]), sys.argv[2]
tick = os.sysconf("SC_CLK_TCK")


def find():
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            argv = open(f"/proc/{pid}/cmdline", "rb").read().decode().split("\0")
        except OSError:
            continue
        if len(argv) > 1 and pat.search(argv[0]) and argv[1] == "prefill-agent":
            return pid
    return None


deadline = time.time() + 120
pid = None
while pid is None and time.time() < deadline:
    pid = find()
    time.sleep(0.02)
if pid is None:
    sys.exit("sample.py: no process matched " + sys.argv[1])
rss, cpu = 0, 0.0
while True:
    try:
        st = open(f"/proc/{pid}/status").read()
        stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        break
    m = re.search(r"VmHWM:\s+(\d+)", st)
    if m:
        rss = max(rss, int(m.group(1)))
    cpu = (int(stat[11]) + int(stat[12])) / tick
    time.sleep(0.05)
open(out, "w").write(f"{rss} {cpu:.2f}\n")
