# The distro lab's swift-init host shape: client1 as one Swift all in one,
# its servers run by swift-init (pid files under /var/run/swift) as on a
# source install, memcached started directly, directory disks. Swift's
# packages come from the lab's mirror; testbeds/distro/up gives every host
# a swift-init (Debian 12 ships its library, swift.common.manager, but not
# the command).
#
#   testbeds/distro/up && benchbed setup testbeds/distro/aio-swift-init.hcl

testbed "distro-aio" {
  description = "one Debian 12 host, Swift all in one under swift-init"
}

# The lab's access (ssh.hcl; its parallelism of 8 is moot on one host).
include "parts/ssh.hcl" {}

host "client1" {
  address = "198.18.1.31"
  roles   = ["proxy", "object", "container", "account", "client"]
  hardware {
    kind = "systemd-nspawn container, Debian 12"
  }
  disks "object" { names = ["d0", "d1"] }
  disks "meta" { names = ["m0"] }
}

ring "object" {
  part_power     = 6
  replicas       = 1
  min_part_hours = 0
  disks          = "object"
  port           = 6200
  port_base      = 6210
}

ring "container" {
  part_power     = 6
  replicas       = 1
  min_part_hours = 0
  disks          = "meta"
  port           = 6201
}

ring "account" {
  part_power     = 6
  replicas       = 1
  min_part_hours = 0
  disks          = "meta"
  port           = 6202
}

service "proxy-server" {
  role    = "proxy"
  manager = "swift-init"
  settings = {
    DEFAULT = { bind_port = 8080, workers = 1 }
    "filter:tempauth" = { user_bench_bench = "${var.auth_key} .admin" }
    "filter:cache" = { memcache_servers = "127.0.0.1:11211", memcache_max_connections = 10 }
  }
}

service "object-server" {
  role     = "object"
  manager  = "swift-init"
  settings = { DEFAULT = { workers = 1, servers_per_port = 0, mount_check = false } }
}

service "container-server" {
  role     = "container"
  manager  = "swift-init"
  settings = { DEFAULT = { workers = 1, mount_check = false } }
}

service "account-server" {
  role     = "account"
  manager  = "swift-init"
  settings = { DEFAULT = { workers = 1, mount_check = false } }
}

variant "normal" {}

variant "servers_per_port" {
  for_each = [2]
  name     = "servers_per_port=${each.value}"
  set "object-server" {
    DEFAULT = { workers = 1, servers_per_port = each.value }
  }
  ring "object" { port_per_disk = true }
}

workload "64K_get" {
  scenario          = "64K_get_aio.scenario"
  users             = 8
  duration          = "5s"
  clients           = ["client1"]
  agents_per_client = 1
  auth {
    url  = "http://198.18.1.31:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

prefill {
  workloads   = ["64K_get"]
  concurrency = 16
}

sweep {
  repeat     = 1
  warmup     = "2s"
  on_failure = "continue"
  restore    = true
}
