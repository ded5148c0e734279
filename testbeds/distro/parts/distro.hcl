# The distro lab, described once: real machines at the scale of one
# machine. The hosts are Debian 12 containers booted with systemd
# (testbeds/distro/up), each with its own root, package database, sshd and
# network namespace on 198.18.1.0/24; no Swift is installed until benchbed
# setup installs it from the lab's mirror. Daemons run as Debian's systemd
# units; the storage hosts' disks are loop devices (/dev/vdb, /dev/vdc,
# /dev/vdd) that setup formats with XFS once and mounts under /srv/node
# with mount_check = true. Not a testbed on its own: distro.hcl and
# faults-distro.hcl include it.
#
# This is also the worked example of a lab of real hosts: change the
# addresses, the ssh block (ssh.hcl) and the devices, and keep the rest.

include "ssh.hcl" {}

host "proxy1" {
  address = "198.18.1.11"
  roles   = ["proxy"]
  hardware {
    kind = "systemd-nspawn container, Debian 12"
  }
}

# The storage hosts differ only in their address: one block, one host per
# element of for_each, each named by its key.
host "stor" {
  for_each = { stor1 = "198.18.1.21", stor2 = "198.18.1.22" }
  address  = each.value
  roles    = ["object", "container", "account"]
  hardware {
    kind  = "systemd-nspawn container, Debian 12"
    disks = "loop devices on sparse files"
  }
  disks "object" {
    names      = ["d0", "d1"]
    devices    = ["/dev/vdb", "/dev/vdc"]
    filesystem = "xfs"
    format     = true
  }
  disks "meta" {
    names      = ["m0"]
    devices    = ["/dev/vdd"]
    filesystem = "xfs"
    format     = true
  }
}

host "client1" {
  address = "198.18.1.31"
  roles   = ["client"]
  hardware {
    kind = "systemd-nspawn container, Debian 12"
  }
}

# min_part_hours = 0: in the lab a changed testbed moves partitions at once;
# a real cluster keeps 1 hour or more.
ring "object" {
  part_power     = 8
  replicas       = 2
  min_part_hours = 0
  disks          = "object"
  port           = 6200
  port_base      = 6210
}

ring "container" {
  part_power     = 8
  replicas       = 2
  min_part_hours = 0
  disks          = "meta"
  port           = 6201
  port_base      = 6220
}

ring "account" {
  part_power     = 8
  replicas       = 2
  min_part_hours = 0
  disks          = "meta"
  port           = 6202
  port_base      = 6230
}

# manager = "systemd" is the default: Debian's units swift-proxy,
# swift-object, swift-container, swift-account and memcached.
service "proxy-server" {
  role     = "proxy"
  template = "proxy-server"
  path     = "/etc/swift/proxy-server.conf"
  manager  = "systemd"
  settings = {
    DEFAULT = { bind_port = 8080, workers = 1 }
    "filter:tempauth" = { user_bench_bench = "${var.auth_key} .admin" }
    "filter:cache" = { memcache_servers = "127.0.0.1:11211", memcache_max_connections = 10 }
  }
}

# daemons: the object auditor runs beside the object server, as on a
# production cluster (Debian's unit swift-object-auditor); the other
# replicators, auditors and updaters are left as the packages leave them.
service "object-server" {
  role     = "object"
  template = "object-server"
  path     = "/etc/swift/object-server.conf"
  manager  = "systemd"
  daemons  = ["auditor"]
  settings = {
    DEFAULT = { workers = 1, servers_per_port = 0, mount_check = true }
  }
}

service "container-server" {
  role     = "container"
  template = "container-server"
  path     = "/etc/swift/container-server.conf"
  manager  = "systemd"
  settings = {
    DEFAULT = { workers = 1, mount_check = true }
  }
}

service "account-server" {
  role     = "account"
  template = "account-server"
  path     = "/etc/swift/account-server.conf"
  manager  = "systemd"
  settings = {
    DEFAULT = { workers = 1, mount_check = true }
  }
}

