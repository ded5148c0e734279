# Shared by testbeds/lab/up and down: names, addresses and paths of the local
# lab. Sourced, not run.

# The lab's state: every host's private directories, sshd files and the
# client key live under this one directory.
LAB_DIR=${BENCHBED_LAB_DIR:-/var/lib/benchbed-lab}
# The bridge in the root namespace and its address (RFC 2544's benchmark
# range; the lab uses no other subnet).
LAB_BRIDGE=bbr0
LAB_NET=198.18.0
LAB_GW=$LAB_NET.1
# Hosts of the multi-host lab and the last byte of their addresses.
declare -A LAB_ADDR=([proxy1]=11 [stor1]=21 [stor2]=22 [client1]=31)
LAB_HOSTS=(proxy1 stor1 stor2 client1)
# The one-host variant: an sshd on 127.0.0.1 in a private mount namespace.
AIO_HOST=aio
AIO_ADDR=127.0.0.1
AIO_PORT=${BENCHBED_AIO_PORT:-2297}
# Directories each host gets privately: "<dir under the host's state>:<mount point>".
# /var/tmp too, as on real hosts: a sweep's lock and the agents' binary are
# each host's own, and go with the lab's state. root's home too, empty: over
# SSH, Debian's bash reads ~/.bashrc before every command, and this machine's
# (a developer's: pyenv init, cargo env) cost 0.3 s of CPU per command and put
# another python3 first on PATH; a fresh host has none.
LAB_ROOT_HOME=$(getent passwd root | cut -d: -f6)
LAB_BINDS=(etc-swift:/etc/swift srv:/srv cache:/var/cache/swift run:/var/run/swift log:/var/log/swift
           tmp:/var/tmp "home:${LAB_ROOT_HOME:-/root}")
# Debian packages the lab needs on this machine.
LAB_PKGS=(openssh-server swift swift-proxy swift-object swift-container swift-account
          memcached rsyslog python3-swiftclient iproute2 procps util-linux)

# Each multi-host lab host's cgroup, under the root of every hierarchy the
# faults use (lab_cgroup_mounts).
LAB_CGROUP=benchbed-lab

# lab_cgroup_mounts prints "target fstype options" of the cgroup
# hierarchies the faults use: v1 blkio (slow_disk) and freezer (pause with
# the freezer), or a cgroup2 mounted at /sys/fs/cgroup (a v2-only host).
lab_cgroup_mounts() {
  findmnt -rno TARGET,FSTYPE,OPTIONS -t cgroup,cgroup2 |
    awk '($2 == "cgroup" && $3 ~ /(^|,)(blkio|freezer)(,|$)/) || ($2 == "cgroup2" && $1 == "/sys/fs/cgroup")'
}

# remove_lab_cgroups removes the hosts' cgroups (deepest first), once empty.
remove_lab_cgroups() {
  local target fstype opts i
  while read -r target fstype opts; do
    [ -d "$target/$LAB_CGROUP" ] || continue
    for i in $(seq 1 30); do
      find "$target/$LAB_CGROUP" -depth -type d -exec rmdir {} + 2>/dev/null || true
      [ -d "$target/$LAB_CGROUP" ] || break
      sleep 0.1
    done
    [ ! -d "$target/$LAB_CGROUP" ] || die "cgroup $target/$LAB_CGROUP is left (it still holds processes)"
  done < <(lab_cgroup_mounts)
}

log() { echo "lab: $*" >&2; }
die() { echo "lab: error: $*" >&2; exit 1; }

need_root() { [ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces, mounts, sshd)"; }

# lock takes the lab's lock so that two up/down runs never interleave, and
# waits while an e2e test binary uses the lab (it holds benchbed-e2e.lock for
# its whole run and says so to the scripts it calls).
lock() {
  mkdir -p /run/lock
  if [ -z "${BENCHBED_E2E_LOCK_HELD:-}" ]; then
    exec 8>/run/lock/benchbed-e2e.lock
    flock -n 8 || { log "an e2e test uses the lab; waiting for it to end"; flock -w 1800 8; } ||
      die "an e2e test still holds /run/lock/benchbed-e2e.lock"
  fi
  exec 9>/run/lock/benchbed-lab.lock
  flock -w 300 9 || die "another lab up/down holds /run/lock/benchbed-lab.lock"
}

# host_mntns prints the mount namespace of host $1's sshd (from its pid
# file), or nothing: never the machine's own (a stale pid file).
host_mntns() {
  local pidf=$LAB_DIR/hosts/$1/sshd.pid pid ns
  [ -s "$pidf" ] || return 0
  pid=$(cat "$pidf")
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sshd ] || return 0
  ns=$(readlink "/proc/$pid/ns/mnt" 2>/dev/null) || return 0
  [ "$ns" = "$(readlink /proc/1/ns/mnt)" ] && return 0
  [ "$ns" = "$(readlink /proc/$$/ns/mnt)" ] && return 0
  echo "$ns"
}

# pids_in_mntns prints the pids of every process in mount namespace $1.
pids_in_mntns() {
  local p
  [ -n "$1" ] || return 0
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$1" ] && echo "${p#/proc/}"
  done
  return 0
}

# host_pids prints the pids of every process of host $1: those in its network
# namespace, and those in its sshd's mount namespace $2 (found before the
# sshd was stopped; the one-host variant has only that).
host_pids() {
  if [ "$1" != "$AIO_HOST" ] && ip netns list | grep -qw "^$1"; then
    ip netns pids "$1" 2>/dev/null || true
  fi
  pids_in_mntns "${2:-}"
}
