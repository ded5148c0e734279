# The distro lab's hosts: root, network, disks, boot. Sourced by up after
# lib.sh.

# host_root mounts host $1's copy-on-write root (overlayfs over the image)
# and gives it its own hostname, machine-id, host key, authorized key and
# /etc/hosts, once.
host_root() {
  local h=$1 d=$DISTRO_DIR/hosts/$1
  mkdir -p "$d/upper" "$d/work" "$d/root"
  if ! mountpoint -q "$d/root"; then
    mount -t overlay "benchbed-distro-$h" \
      -o "lowerdir=$DISTRO_IMAGE,upperdir=$d/upper,workdir=$d/work" "$d/root"
  fi
  local r=$d/root
  echo "$h" > "$r/etc/hostname"
  [ -s "$r/etc/machine-id" ] || tr -d - < /proc/sys/kernel/random/uuid > "$r/etc/machine-id"
  if [ ! -s "$r/etc/ssh/ssh_host_ed25519_key" ]; then
    ssh-keygen -q -t ed25519 -N '' -C "root@$h" -f "$r/etc/ssh/ssh_host_ed25519_key"
  fi
  cp "$r/etc/ssh/ssh_host_ed25519_key.pub" "$d/ssh_host_ed25519_key.pub"
  install -m 755 "$here/swift-init" "$r/usr/local/bin/swift-init"
  install -d -m 700 "$r/root/.ssh"
  install -m 600 "$DISTRO_DIR/client/id_ed25519.pub" "$r/root/.ssh/authorized_keys"
  {
    echo "127.0.0.1 localhost"
    echo "127.0.1.1 $h"
    local o
    for o in "${DISTRO_HOSTS[@]}"; do echo "$DISTRO_NET.${DISTRO_ADDR[$o]} $o"; done
  } > "$r/etc/hosts"
}

# net_host puts host $1's network namespace on the bridge, with no route
# beyond the lab's subnet.
net_host() {
  local h=$1 ns v addr=$DISTRO_NET.${DISTRO_ADDR[$1]}
  ns=$(netns_of "$h"); v=$(veth_of "$h")
  ip netns list | grep -qw "^$ns" || ip netns add "$ns"
  if ! ip link show "$v" >/dev/null 2>&1; then
    ip link add "$v" type veth peer name host0 netns "$ns"
    ip link set "$v" master "$DISTRO_BRIDGE" up
  fi
  ip -n "$ns" link set lo up
  ip -n "$ns" addr replace "$addr/24" dev host0
  ip -n "$ns" link set host0 up
}

# host_disks backs each of host $1's disks with a sparse file on a loop
# device, once; the device's path is kept in disks/<name>.loop.
host_disks() {
  local h=$1 d=$DISTRO_DIR/hosts/$1/disks e name size img dev
  mkdir -p "$d"
  for e in "${DISTRO_DISKS[@]}"; do
    IFS=: read -r name _ size <<< "$e"
    img=$d/$name.img
    [ -f "$img" ] || truncate -s "$size" "$img"
    dev=$(losetup -j "$img" -O NAME -n | head -n 1)
    [ -n "$dev" ] || dev=$(losetup --find --show "$img") || die "$h: no loop device for $img"
    echo "$dev" > "$d/$name.loop"
  done
}

# disk_binds prints host $1's nspawn options binding its loop devices to the
# names the testbed gives them (/dev/vdb, ...).
disk_binds() {
  local h=$1 d=$DISTRO_DIR/hosts/$1/disks e name node
  [ -d "$d" ] || return 0
  for e in "${DISTRO_DISKS[@]}"; do
    IFS=: read -r name node _ <<< "$e"
    echo "--bind=$(cat "$d/$name.loop"):/dev/$node"
  done
}

# boot_host boots host $1 with systemd in its own network namespace,
# detached; its console goes to nspawn.log. --register=no: this machine runs
# no systemd of its own to register the container with; so nspawn keeps the
# cgroup it is started in (--keep-unit), and each host is started in its own
# (DISTRO_CGROUP/<host> in every hierarchy): in a shared one the hosts'
# systemds would make and remove each other's units' cgroups. CAP_NET_ADMIN
# (in the host's own network namespace) lets the partition and slow_link
# faults set nft rules and tc qdiscs there.
boot_host() {
  local h=$1 d=$DISTRO_DIR/hosts/$1 ns cg enter=""
  [ -n "$(nspawn_pid "$h")" ] && return 0
  ns=$(netns_of "$h")
  for cg in $(cgroup_roots); do
    mkdir -p "$cg/$DISTRO_CGROUP/$h"
    enter+="echo \$\$ > $cg/$DISTRO_CGROUP/$h/cgroup.procs; "
  done
  setsid bash -c "echo \$\$ > $d/nspawn.pid; $enter exec systemd-nspawn --boot --directory=$d/root \
    --register=no --keep-unit --capability=CAP_NET_ADMIN --machine=$h --hostname=$h --console=passive --resolv-conf=off \
    --timezone=off --link-journal=no --network-namespace-path=/run/netns/$ns $(disk_binds "$h" | tr '\n' ' ')" \
    </dev/null >"$d/nspawn.log" 2>&1 9>&- &
}

# writable_controllers makes host $1's blkio and freezer hierarchies
# writable inside it. nspawn mounts the v1 controllers read-only; the host
# runs in a cgroup namespace rooted at its own cgroup (boot_host), so its
# /sys/fs/cgroup/blkio is that cgroup's subtree alone: made writable there
# (a remount of that mount, in the host's mount namespace only), its root
# can throttle and freeze its own processes and no others of this machine.
writable_controllers() {
  local h=$1 npid init m
  npid=$(nspawn_pid "$h")
  init=$(ps -o pid= --ppid "$npid" | head -n 1 | tr -d ' ')
  [ -n "$init" ] || die "$h: no init process under nspawn $npid"
  for m in $(fault_controllers); do
    nsenter -t "$init" -m -- mount -o remount,bind,rw "$m" ||
      die "$h: cannot make $m writable inside the host"
  done
  # systemd found them read-only at boot and leaves them alone until it is
  # executed again (then IOReadBandwidthMax= and the like act on blkio).
  ssh -F "$DISTRO_DIR/client/ssh_config" -o BatchMode=yes "$h" systemctl daemon-reexec ||
    die "$h: systemctl daemon-reexec failed"
}

# wait_host waits until host $1 accepts benchbed's login and systemd has
# finished booting it; a degraded boot is shown with its failed units.
wait_host() {
  local h=$1 i state ssh=(ssh -F "$DISTRO_DIR/client/ssh_config" -o BatchMode=yes -o ConnectTimeout=2 "$1")
  for i in $(seq 1 300); do
    "${ssh[@]}" true 2>/dev/null && break
    [ -n "$(nspawn_pid "$h")" ] || die "$h: the container exited (see $DISTRO_DIR/hosts/$h/nspawn.log)"
    [ "$i" -lt 300 ] || die "$h: sshd does not accept the lab key after 60 s (see $DISTRO_DIR/hosts/$h/nspawn.log)"
    sleep 0.2
  done
  state=$("${ssh[@]}" systemctl is-system-running --wait 2>/dev/null || true)
  case $state in
    running) ;;
    degraded) log "$h: systemd is degraded: $("${ssh[@]}" systemctl --failed --no-legend --plain | cut -d' ' -f1 | tr '\n' ' ')" ;;
    *) die "$h: systemd is $state (see $DISTRO_DIR/hosts/$h/nspawn.log)" ;;
  esac
}
