# Seed 000's variants on the distro lab under faults: normal and
# servers_per_port=4 (one port per disk), each under one slow disk (stor1's
# d0 throttled to 256 KiB/s and 5 write IOPS for its object server from
# 15 s to 30 s of a 45 s run) and under one paused object server (stor1's,
# SIGSTOP from 15 s to 30 s). The workload PUTs 64 KiB objects, which Swift fsyncs,
# so the throttle reaches the disk (GETs would be served from the page
# cache). Each cell is measured before, during and after its fault; the
# report gives the phases, the degradation and the time to recover, and
# compare sets normal and servers_per_port=4 side by side.
#
#   testbeds/distro/up && benchbed setup testbeds/distro/faults-distro.hcl
#   benchbed plan testbeds/distro/faults-distro.hcl       # the fault steps and their undo
#   benchbed sweep testbeds/distro/faults-distro.hcl --only normal+slow_disk --only servers_per_port=4+slow_disk
#   benchbed compare RUN:normal+slow_disk RUN:servers_per_port=4+slow_disk
#
# testbeds/distro/up boots the containers with CAP_NET_ADMIN and an image
# with nftables and iptables (partition, slow_link), each in blkio and
# freezer cgroups of its own that it sees, through its cgroup namespace,
# as the whole hierarchy, made writable inside it (nspawn mounts them
# read-only), systemd re-executed so that IOReadBandwidthMax= acts: the
# throttle touches the host's own unit and the loop device of its disk
# only. A real host's root has all of it. e2e/distro's FaultCells sweeps
# every cell but the paused ones, short.

testbed "faults-distro" {
  description = "seed 000's normal and servers_per_port=4 under one slow disk and one paused object server, on booted Debian 12 hosts"
}

include "parts/distro.hcl" {}

variant "slow_disk" {
  for_each = { "normal" = 0, "servers_per_port=4" = 4 }
  name     = "${each.key}+slow_disk"
  set "object-server" {
    DEFAULT = { workers = 1, servers_per_port = each.value }
  }
  ring "object" { port_per_disk = each.value > 0 }
  fault "slow_disk" {
    hosts             = ["stor1"]
    disks             = ["d0"]
    at                = 15
    for               = 15
    read_bytes_per_s  = 262144
    write_bytes_per_s = 262144
    write_iops        = 5
  }
}

variant "paused" {
  for_each = { "normal" = 0, "servers_per_port=4" = 4 }
  name     = "${each.key}+paused"
  set "object-server" {
    DEFAULT = { workers = 1, servers_per_port = each.value }
  }
  ring "object" { port_per_disk = each.value > 0 }
  fault "pause" {
    hosts   = ["stor1"]
    service = "object-server"
    how     = "signal"
    at      = 15
    for     = 15
  }
}

# One cell per other kind, so that every kind runs on this lab: stor1's d0
# unmounted (mount_check answers 507 for it), stor2's object server
# stopped by systemd, stor2's object ports dropped (nft), proxy1's link
# limited to 10 Mbit/s (tc tbf), and stor1's d0 re-weighted to 0 with the
# ring rebalanced and pushed (the original rings back at the undo).
#
#   benchbed sweep testbeds/distro/faults-distro.hcl --only fail_disk --only stopped \
#     --only partitioned --only slow_link --only rebalance
variant "fail_disk" {
  fault "fail_disk" {
    hosts = ["stor1"]
    disks = ["d0"]
    at    = 15
    for   = 15
  }
}

variant "stopped" {
  fault "stop" {
    hosts   = ["stor2"]
    service = "object-server"
    at      = 15
    for     = 15
  }
}

variant "partitioned" {
  fault "partition" {
    hosts   = ["stor2"]
    service = "object-server"
    at      = 15
    for     = 15
  }
}

variant "slow_link" {
  fault "slow_link" {
    hosts = ["proxy1"]
    rate  = "10mbit"
    at    = 15
    for   = 15
  }
}

variant "rebalance" {
  fault "rebalance" {
    hosts  = ["stor1"]
    disks  = ["d0"]
    ring   = "object"
    weight = 0
    at     = 15
    for    = 15
  }
}

workload "64K_put" {
  scenario          = "64K_put_faults.scenario"
  users             = 16
  duration          = "45s"
  clients           = ["client1"]
  agents_per_client = 1
  auth {
    url  = "http://198.18.1.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

prefill {
  workloads   = ["64K_put"]
  concurrency = 16
}

sweep {
  repeat     = 1
  warmup     = "5s"
  on_failure = "continue"
  restore    = true
}
