#!/usr/bin/env bash
# scripts/test-prep.sh: what make test does before its unit tests, arranged
# so that the waits overlap. This machine's missing Debian packages install
# (scripts/deps.sh test apt: downloads and dpkg, about a core) while Go
# fetches the modules, installs staticcheck, lints, and compiles every
# test binary (scripts/unit.sh --compile, and the e2e suites'; none needs
# those packages). Once the packages are in, the distro lab's image and
# mirror start being made in the background (testbeds/distro/cache: a
# debootstrap on a fresh machine), while the unit tests and the netns lab's
# suite run; the distro lab's up waits for it. Its log: bin/distro-cache.log.
#
# Usage: scripts/test-prep.sh   (from make test)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
t0=$SECONDS
scripts/deps.sh test apt > bin/deps.log 2>&1 &
apt=$!
rc=0
# each step's end, in seconds since the start, for the figures
at() { echo "test-prep: $1 at $((SECONDS - t0)) s" >&2; }
{ scripts/deps.sh test go && at "staticcheck installed" && make --no-print-directory lint && at "lint done" &&
  scripts/unit.sh --compile && go test -race -count=1 -run '^$' -exec /bin/true ./e2e/... > /dev/null &&
  at "every test binary built"; } || rc=$?
arc=0
wait "$apt" || arc=$?
cat bin/deps.log >&2
echo "test-prep: Debian packages in $((SECONDS - t0)) s" >&2
[ "$arc" -eq 0 ] || { echo "test-prep: installing the Debian packages failed (exit $arc)" >&2; exit "$arc"; }
[ "$rc" -eq 0 ] || exit "$rc"
if [ "$(id -u)" -eq 0 ] && command -v debootstrap >/dev/null; then
  setsid testbeds/distro/cache > bin/distro-cache.log 2>&1 < /dev/null &
  echo "test-prep: the distro lab's image and mirror are made in the background (bin/distro-cache.log)" >&2
fi
