# Seed 000's variants on the distro lab (parts/distro.hcl: its hosts,
# rings and services, described once): 64 KiB GETs, normal against
# servers_per_port=1 and 2.
#
#   testbeds/distro/up && benchbed setup testbeds/distro/distro.hcl
#   benchbed sweep testbeds/distro/distro.hcl --only normal --only servers_per_port=2

testbed "distro" {
  description = "booted Debian 12 hosts: Swift from packages, systemd units, XFS on block devices"
}

include "parts/distro.hcl" {}

variant "normal" {}

variant "servers_per_port" {
  for_each = [1, 2]
  name     = "servers_per_port=${each.value}"
  set "object-server" {
    DEFAULT = { workers = 1, servers_per_port = each.value }
  }
  ring "object" { port_per_disk = true }
}

workload "64K_get" {
  scenario          = "64K_get_distro.scenario"
  users             = 32
  duration          = "20s"
  clients           = ["client1"]
  agents_per_client = 1
  auth {
    url  = "http://198.18.1.11:8080/auth/v1.0"
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
  warmup     = "5s"
  on_failure = "continue"
  restore    = true
}
