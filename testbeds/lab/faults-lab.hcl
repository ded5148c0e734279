# Seed 000's variants on the netns lab under faults: normal and
# servers_per_port=4 (one port per disk), each under one slow disk (stor1's
# d0 throttled to 1 MiB/s and 20 IOPS for its object server from 20 s to
# 40 s of a 60 s run) and under one paused object server (stor1's, SIGSTOP
# from 20 s to 35 s). The workload PUTs 64 KiB objects, which Swift fsyncs,
# so the throttle reaches the disk.
#
# The lab's disks are directories, and a block throttle needs a block
# device: stor1's object disks here are loop devices over files in the
# lab's state directory, reached through links under /run/benchbed-lab
# (which the hosts see; the state directory they do not), made once (root;
# testbeds/lab/down detaches them):
#
#   testbeds/lab/up
#   mkdir -p /var/lib/benchbed-lab/disks /run/benchbed-lab/disks
#   for d in d0 d1 d2 d3; do
#     truncate -s 1G /var/lib/benchbed-lab/disks/stor1-$d.img
#     ln -sfn "$(losetup -f --show /var/lib/benchbed-lab/disks/stor1-$d.img)" /run/benchbed-lab/disks/stor1-$d
#   done
#   benchbed setup testbeds/lab/faults-lab.hcl            # formats them (XFS) and mounts them in stor1
#   benchbed plan testbeds/lab/faults-lab.hcl             # the fault steps and their undo
#   benchbed sweep testbeds/lab/faults-lab.hcl --only normal+slow_disk --only servers_per_port=4+slow_disk
#
# (losetup -d each device once the lab is down.) The lab's hosts are root
# in their own network namespaces of this machine: tc and nft/iptables act
# there (partition, slow_link), and the pause and stop faults signal the
# process groups of the directly started servers (manager "direct": stop
# needs how = "kill"). A host's sshd runs under `ip netns exec`, which
# mounts a sysfs of its own over /sys; testbeds/lab/up mounts the blkio and
# freezer hierarchies back in, each host in a cgroup namespace rooted at
# its own cgroup (benchbed-lab/<host>), so slow_disk's throttle (and a
# pause with how = "freezer") acts on the host's own servers and on the
# loop device of the disk only (e2e TestFault/SlowDiskPUTCell).

testbed "faults-lab" {
  description = "local lab: seed 000's normal and servers_per_port=4 under one slow disk and one paused object server"
}

include "parts/netns.hcl" {}

# stor1's object disks are the loop devices made above, formatted and
# mounted by setup; the rest of the lab is netns.hcl's.
override {
  host "stor1" {
    disks "object" {
      names      = local.disks
      devices    = [for d in local.disks : "/run/benchbed-lab/disks/stor1-${d}"]
      filesystem = "xfs"
      format     = true
    }
  }
}

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
    at                = 20
    for               = 20
    read_bytes_per_s  = 1048576
    write_bytes_per_s = 1048576
    write_iops        = 20
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
    at      = 20
    for     = 15
  }
}

workload "64K_put" {
  scenario          = "64K_put_faults.scenario"
  users             = 16
  duration          = "60s"
  clients           = ["client1"]
  agents_per_client = 1
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
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
