#!/usr/bin/env bash
# make demo: brings the local lab up (testbeds/lab/up: four hosts in network
# namespaces with their own sshd), turns it into a healthy Swift cluster
# with `benchbed setup`, shows what a sweep of the seed's variants would do
# with `benchbed plan`, then runs that sweep (six variants, three
# interleaved 8 s repeats of each, about six minutes), prints its table,
# writes its report (runs/demo-report) and ends on the verdict: each
# variant against normal, with a 95 % interval from the repeats. Root on
# Debian; `make lab-down` removes the lab.
set -euo pipefail
cd "$(dirname "$0")/.."
testbed=testbeds/lab/lab.hcl
if [ "$(id -u)" -ne 0 ]; then
  echo "demo: the local lab needs root (network namespaces, mounts, sshd); run make demo as root" >&2
  exit 1
fi
testbeds/lab/up
bin/benchbed validate "$testbed"
bin/benchbed setup -q "$testbed"
bin/benchbed plan "$testbed"
bin/benchbed sweep "$testbed"
bin/benchbed report "$testbed" latest --out runs/demo-report >/dev/null
run=$(ls -d runs/lab/2*/ | sort | tail -n 1)
cat <<MSG

demo: the sweep restored the lab as it found it; the lab is up and healthy. Try it from the client host (KEY: the
default of variable "auth_key" in $testbed):
  ssh -F /var/lib/benchbed-lab/client/ssh_config client1 \\
    swift -A http://198.18.0.11:8080/auth/v1.0 -U bench:bench -K KEY stat
Run "bin/benchbed setup $testbed" again: it changes nothing. "make lab-down" removes the lab.
The sweep's report: runs/demo-report/report.html (plots, tables, environment, journal); its run: ${run%/}.
Two variants side by side: bin/benchbed compare ${run%/}:normal ${run%/}:servers_per_port=2

demo: the verdict (bin/benchbed report $testbed latest --verdict):
MSG
bin/benchbed report "$testbed" latest --verdict
