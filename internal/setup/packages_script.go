package setup

import (
	"fmt"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/remote"
)

// installLog is where an install script keeps the package manager's output
// on the host; a failure shows its end.
const installLog = "/var/log/benchbed-install.log"

// installScript installs those of pkgs the host lacks with pm, printing
// "installed P1 P2" (nothing when all are there). Before installing it
// checks that every missing package is in the host's repositories: when one
// is not it names it on stderr, installs nothing and exits absentCode.
// Package scripts start no daemon: apt runs under a policy-rc.d that
// denies every start (unless the host has its own), and RPM scriptlets
// only enable units.
func installScript(pm string, pkgs []string) string {
	q := make([]string, len(pkgs))
	for i, p := range pkgs {
		q[i] = remote.Quote(p)
	}
	list := strings.Join(q, " ")
	if pm == cluster.PackagerDnf {
		return fmt.Sprintf(dnfScript, list, absentCode, installLog)
	}
	return fmt.Sprintf(aptScript, list, absentCode, installLog)
}

// aptScript: %[1]s the packages, %[2]d absentCode, %[3]s the log.
const aptScript = `missing=""
for p in %[1]s; do
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive NEEDRESTART_MODE=l
apt="apt-get -q -o DPkg::Lock::Timeout=300"
$apt update >%[3]s 2>&1 || { echo "apt-get update failed:" >&2; tail -n 8 %[3]s >&2; exit 1; }
absent=""
for p in $missing; do
  c=$(apt-cache policy "$p" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
  [ -n "$c" ] && [ "$c" != "(none)" ] || absent="$absent $p"
done
if [ -n "$absent" ]; then echo "no package$absent in the host's apt repositories" >&2; exit %[2]d; fi
if [ ! -e /usr/sbin/policy-rc.d ]; then
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  printf '#!/bin/sh\n# benchbed setup: no daemon starts while packages install\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod 755 /usr/sbin/policy-rc.d
fi
$apt install -y --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $missing >>%[3]s 2>&1 ||
  { echo "apt-get install$missing failed:" >&2; tail -n 8 %[3]s >&2; exit 1; }
echo "installed$missing"`

// dnfScript: %[1]s the packages, %[2]d absentCode, %[3]s the log.
const dnfScript = `missing=""
for p in %[1]s; do rpm -q "$p" >/dev/null 2>&1 || missing="$missing $p"; done
[ -z "$missing" ] && exit 0
absent=""
for p in $missing; do dnf -q list --available "$p" >/dev/null 2>&1 || absent="$absent $p"; done
if [ -n "$absent" ]; then echo "no package$absent in the host's dnf repositories" >&2; exit %[2]d; fi
dnf install -y --setopt=install_weak_deps=False $missing >%[3]s 2>&1 ||
  { echo "dnf install$missing failed:" >&2; tail -n 8 %[3]s >&2; exit 1; }
echo "installed$missing"`
