#!/usr/bin/env bash
# scripts/e2e.sh: the end-to-end suites (./e2e/...), after the unit tests and
# one test binary at a time (go test -p 1), each with its own timeout.
#
# The labs are one per machine: the e2e lock (/run/lock/benchbed-e2e.lock) is
# taken here, before go test starts, so that time spent waiting for another
# user of the lab (a demo, a bench script, another checkout's tests) never
# counts against the tests' timeout. The test binaries are told they hold it.
# A caller that holds it already says so with BENCHBED_E2E_LOCK_HELD=1.
# Not root: the tests run and skip, each saying why.
# Every test binary's tests' times (and its lab bring-up and down) are
# printed at the end, with the machine's load average.
#
# Usage: scripts/e2e.sh [go test flags...]   (E2E_TIMEOUT, default 25m per binary)
set -euo pipefail
cd "$(dirname "$0")/.."
args=(go test -race -count=1 -p 1 -timeout "${E2E_TIMEOUT:-25m}" "$@" ./e2e/...)
if [ "$(id -u)" -ne 0 ]; then
  echo "e2e: not root: the lab's tests skip (each says why); CI runs them as root" >&2
  exec "${args[@]}"
fi
if [ "${BENCHBED_E2E_LOCK_HELD:-}" = 1 ]; then
  echo "e2e: the caller holds the lab's lock" >&2
else
mkdir -p /run/lock
exec 8>/run/lock/benchbed-e2e.lock
if ! flock -n 8; then
  echo "e2e: waiting for the lab's lock: another e2e run, bench or demo uses the lab" >&2
  flock -w 3600 8 || { echo "e2e: the lab is still in use after an hour; giving up" >&2; exit 1; }
fi
fi
export BENCHBED_E2E_LOCK_HELD=1
# Each test binary appends its tests' times here (go test shows nothing of a
# passing binary without -v); they are printed whether the tests pass or not.
times=$(mktemp /tmp/benchbed-times.XXXXXX)
export BENCHBED_E2E_TIMES=$times
start=$(date +%s)
rc=0
"${args[@]}" || rc=$?
cat "$times" >&2
rm -f "$times"
[ "$rc" -eq 0 ] || { echo "e2e: FAILED after $(( $(date +%s) - start )) s (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2; exit "$rc"; }
echo "e2e: passed in $(( $(date +%s) - start )) s (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
