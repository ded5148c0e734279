# Seed 000 on the local lab (parts/netns.hcl: its hosts, rings, services
# described once): 64 KiB GETs over the seed's variants (parts/seed000.hcl), the
# workload shape of the seed scaled down.
#
#   testbeds/lab/up && benchbed setup testbeds/lab/lab.hcl

testbed "lab" {
  description = "local lab: 64 KiB GETs, servers_per_port sweep (seed 000 at lab scale)"
}

include "parts/netns.hcl" {}
include "parts/seed000.hcl" {}

workload "64K_get" {
  scenario          = "64K_get_lab.scenario"
  users             = 64
  duration          = "8s"
  clients           = ["client1"]
  agents_per_client = 1
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

prefill {
  workloads   = ["64K_get"]
  concurrency = 16
}

# Three short runs of each variant, interleaved (every variant's first,
# then every second, then every third), give the verdict an interval from
# repeats that share the lab's drift, where one long run each could not.
sweep {
  repeat     = 3
  interleave = true
  warmup     = "2s"
  on_failure = "continue"
  restore    = true
}
