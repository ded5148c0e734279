#!/usr/bin/env bash
# Installs what benchbed's tests and demo need on Debian, when it is missing:
# Debian packages (apt-get update once, then one install) and staticcheck.
# Usage: scripts/deps.sh [test|demo|bench] [apt|go]   (apt or go: only those;
# make test installs the packages while Go compiles: scripts/test-prep.sh)
set -euo pipefail

kind=${1:-test}
only=${2:-}
pkgs=(openssh-server swift swift-proxy swift-object swift-container swift-account
      memcached rsyslog python3-swiftclient iproute2 procps psmisc curl sudo
      # erasure-coded storage policies (testbeds/lab/policies-lab.hcl): PyECLib
      # and liberasurecode (liberasurecode_rs_vand), ISA-L for isa_l_rs_vand
      python3-pyeclib liberasurecode1 libisal2
      # the distro lab (testbeds/distro): booted Debian hosts and their mirror
      debootstrap systemd-container dpkg-dev apt-utils xfsprogs
      # seed 004 on the lab (testbeds/lab/seed004-lab.hcl): its generic
      # services and command workloads; the lab's hosts share this machine's
      # programs
      nginx-light iperf3 wget
      # fault cells (internal/faults): partition drops ports with nft or iptables
      iptables nftables
      # report.html tested in a headless browser, with the plots' font
      chromium fonts-liberation
      # S3 through Swift's s3api: a client nobody here wrote lists and reads
      # back what benchbed wrote (cmd/benchbed/load_s3_swift_test.go)
      s3cmd
      # metrics streaming (results/metrics): real receivers the tests start on
      # loopback, Prometheus' remote-write receiver (and promtool for the
      # OpenMetrics backfill), VictoriaMetrics' remote write and Influx, and
      # InfluxDB 1.x's /write
      prometheus victoria-metrics influxdb)
case "$kind" in
  bench) pkgs+=(ansible-core wrk nginx-light hey) ;;
esac

missing=()
[ "$only" = go ] && pkgs=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing Debian packages: ${missing[*]}; run as root to install them (tests that need them will skip)" >&2
  else
    echo "deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # Debian's service scripts must not start daemons in CI: the lab starts its own.
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    rm -f /usr/sbin/policy-rc.d
  fi
fi

[ "$only" = apt ] && exit 0
gobin=$(go env GOPATH)/bin
if [ ! -x "$gobin/staticcheck" ]; then
  echo "deps: installing staticcheck" >&2
  go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
fi
