#!/usr/bin/env bash
# capture.sh: takes the fixtures of the telemetry tests from this machine:
# two snapshots of /proc, a second apart (snap1, snap2), while a process
# group named swift-object-server (a parent and two forked children that
# burn CPU) and a program named memcached run, and while a file is written
# and synced so that the disk counters move; and the links of /sys/dev/block
# (sys-dev-block.txt).
#
#   results/telemetry/testdata/capture.sh    (from anywhere; rewrites snap1 and snap2)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

cat > "$work/swift-object-server" <<'PY'
import os, time
for _ in range(2):
    if os.fork() == 0:
        break
end = time.time() + 30
while time.time() < end:
    sum(range(20000))
    time.sleep(0.002)
PY
cp "$(command -v sleep)" "$work/memcached"
python3 "$work/swift-object-server" /etc/swift/object-server.conf &
"$work/memcached" 30 &
sleep 1
pids=$(pgrep -f "$work/" | tr '\n' ' ')

snap() {
  local d=$here/$1/proc p f
  rm -rf "$here/$1" && mkdir -p "$d/net" "$d/self"
  date +%s.%N > "$here/$1/time"
  for f in stat loadavg meminfo diskstats net/dev self/statm; do cat "/proc/$f" > "$d/$f"; done
  # mounts under /mnt (this machine's own tooling) are left out
  grep -v ' /mnt/' /proc/self/mountinfo > "$d/self/mountinfo"
  for p in $pids $$; do
    mkdir -p "$d/$p"
    for f in stat statm cmdline; do cat "/proc/$p/$f" > "$d/$p/$f"; done
  done
}
for l in /sys/dev/block/*; do echo "$(basename "$l") $(readlink "$l")"; done > "$here/sys-dev-block.txt"
snap snap1
dd if=/dev/zero of="$work/written" bs=1M count=8 conv=fsync status=none
sleep 1
snap snap2
echo "captured pids $pids and the shell $$ in $here/snap1 and $here/snap2"
