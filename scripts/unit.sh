#!/usr/bin/env bash
# scripts/unit.sh: the unit tests, every package but the labs' end-to-end
# suites (./e2e/...). A package whose own code starts a goroutine (a go
# statement, or a function handed to another goroutine: errgroup's Go, a
# pool's FanOut, AfterFunc) or uses sync or sync/atomic runs under the
# race detector; the others (the HCL
# decoder, the renderer, the schedule, the fault scripts, the report's
# plots, compare) run on one goroutine each, where the detector can find
# no race, and it multiplied their time by up to 20 (the packages they
# import that have goroutines run under it in their own tests). Six
# packages at a time (four of the race set, two of the others, at once):
# many of them wait more than they compute (real sshd, Swift daemons,
# Python, timeouts), two would leave a core idle.
#
# Usage: scripts/unit.sh [--compile]   (--compile: build every test
# binary and run none, as scripts/test-prep.sh does ahead)
set -euo pipefail
cd "$(dirname "$0")/.."
race=() plain=()
while read -r pkg files; do
  if [ -n "$files" ] && grep -qE '(^|[^A-Za-z0-9_.])go (func|[A-Za-z_][A-Za-z0-9_.]*\()|\.(Go|FanOut|AfterFunc)\(|"sync(/atomic)?"' $files; then
    race+=("$pkg")
  else
    plain+=("$pkg")
  fi
done < <(go list -f '{{.ImportPath}}{{range .GoFiles}} {{$.Dir}}/{{.}}{{end}}' ./... | grep -v '^benchbed/e2e')
mkdir -p bin/test-artifacts
if [ "${1:-}" = --compile ]; then
  go test -race -count=1 -run '^$' -exec /bin/true "${race[@]}" > /dev/null
  go test -count=1 -run '^$' -exec /bin/true "${plain[@]}" > /dev/null
  exit 0
fi
echo "unit: with the race detector: ${race[*]#benchbed/}" >&2
echo "unit: without it (no goroutine of their own): ${plain[*]#benchbed/}" >&2
# Both sets at once: the plain set's packages fill the cores that the race
# set's last, slowest packages leave idle.
flags=(-timeout 15m -count=1 -artifacts -outputdir "$PWD/bin/test-artifacts")
go test -p 2 "${flags[@]}" "${plain[@]}" &
plain_pid=$!
rc=0
go test -race -p 4 "${flags[@]}" "${race[@]}" || rc=$?
prc=0
wait "$plain_pid" || prc=$?
[ "$rc" -eq 0 ] && [ "$prc" -eq 0 ] || { echo "unit: FAILED (race set exit $rc, the others exit $prc)" >&2; exit 1; }
