# Shared by testbeds/distro/up and down: names, addresses and paths of the
# distro lab (booted Debian 12 hosts in systemd-nspawn). Sourced, not run.

# Per-host state (roots, keys, loop files, logs); down removes it.
DISTRO_DIR=${BENCHBED_DISTRO_DIR:-/var/lib/benchbed-distro}
# What survives down: the debootstrapped image and the package mirror.
DISTRO_CACHE=${BENCHBED_DISTRO_CACHE:-/var/cache/benchbed-distro}
DISTRO_IMAGE=$DISTRO_CACHE/image
DISTRO_MIRROR=$DISTRO_CACHE/mirror
# The Debian release of the hosts and where debootstrap and the mirror get it.
DISTRO_SUITE=bookworm
DISTRO_ARCHIVE=${BENCHBED_DISTRO_ARCHIVE:-http://deb.debian.org/debian}
# What debootstrap puts in the image: a booted systemd machine with sshd,
# and nftables and iptables for the partition fault (an image cached before
# they were added lacks them: remove $DISTRO_IMAGE to rebuild it).
DISTRO_INCLUDE=systemd,systemd-sysv,dbus,openssh-server,iproute2,python3,procps,nftables,iptables
# The bridge in the root namespace and its address (RFC 2544's benchmark
# range; the netns lab has 198.18.0.0/24 on bbr0, so both labs coexist).
DISTRO_BRIDGE=bbr1
DISTRO_NET=198.18.1
DISTRO_GW=$DISTRO_NET.1
# The mirror's HTTP server listens on the bridge's address only.
DISTRO_MIRROR_PORT=3142
# Each host's cgroup, under every cgroup hierarchy's root.
DISTRO_CGROUP=benchbed-distro
# Hosts and the last byte of their addresses; a host's network namespace is
# bbd-<host>, its veth in the root namespace bd-<host>.
declare -A DISTRO_ADDR=([proxy1]=11 [stor1]=21 [stor2]=22 [client1]=31)
DISTRO_HOSTS=(proxy1 stor1 stor2 client1)
# Storage hosts and their disks: name:size, each a sparse file on a loop
# device, seen inside the host as /dev/<node>: name:node:size.
DISTRO_STORAGE=(stor1 stor2)
DISTRO_DISKS=(d0:vdb:1G d1:vdc:1G m0:vdd:1G)
# What the mirror holds: Swift's Debian packages and what setup installs
# beside them, with their whole dependency closure.
DISTRO_MIRROR_PKGS=(swift swift-proxy swift-object swift-container swift-account
  python3-swiftclient memcached rsyslog xfsprogs)
# Debian packages this machine needs to build and run the lab.
DISTRO_MACHINE_PKGS=(debootstrap systemd-container dpkg-dev apt-utils openssh-client
  iproute2 util-linux python3 xfsprogs)

log() { echo "distro: $*" >&2; }
die() { echo "distro: error: $*" >&2; exit 1; }

need_root() { [ "$(id -u)" -eq 0 ] || die "must run as root (nspawn, network namespaces, loop devices)"; }

# lock takes the distro lab's machine-wide lock so that two up/down runs
# never interleave. An e2e test binary holds it for its whole run and says
# so to the scripts it calls.
lock() {
  mkdir -p /run/lock
  [ -n "${BENCHBED_DISTRO_LOCK_HELD:-}" ] && return 0
  exec 9>/run/lock/benchbed-distro.lock
  flock -n 9 || { log "another distro up/down or test holds the lab; waiting"; flock -w 1800 9; } ||
    die "another process still holds /run/lock/benchbed-distro.lock"
}

# cache_lock takes the cache's lock (on fd 7) for the rest of the script:
# one image and one mirror are made at a time, and up waits for a
# testbeds/distro/cache started before it (make test runs one in the
# background) instead of building them a second time.
cache_lock() {
  mkdir -p /run/lock
  exec 7>/run/lock/benchbed-distro-cache.lock
  flock -n 7 && return 0
  log "waiting for the image and mirror being made by another process (testbeds/distro/cache)"
  flock -w 1800 7 || die "another process still holds /run/lock/benchbed-distro-cache.lock after 30 min"
}

netns_of() { echo "bbd-$1"; }
veth_of() { echo "bd-$1"; }

# nspawn_pid prints the pid of host $1's systemd-nspawn, or nothing.
nspawn_pid() {
  local f=$DISTRO_DIR/hosts/$1/nspawn.pid pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = systemd-nspawn ] && echo "$pid"
  return 0
}

# cgroup_roots prints the cgroup hierarchies each host gets a cgroup of its
# own in: those systemd uses (cgroup2 mounts and the v1 name=systemd one)
# and the v1 blkio and freezer ones, which the faults write to (see
# writable_controllers).
cgroup_roots() {
  findmnt -rn -t cgroup,cgroup2 -o TARGET,FSTYPE,OPTIONS |
    awk '$2 == "cgroup2" || $3 ~ /(^|,)(name=systemd|blkio|freezer)(,|$)/ { print $1 }'
}

# fault_controllers prints the v1 hierarchies the faults need writable in
# a host: blkio (slow_disk's throttle) and freezer (a pause with the
# freezer).
fault_controllers() {
  findmnt -rn -t cgroup -o TARGET,OPTIONS | awk '$2 ~ /(^|,)(blkio|freezer)(,|$)/ { print $1 }'
}
