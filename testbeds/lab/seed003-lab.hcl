# Seed 003 (testbeds/seed003-containers.hcl) at the scale of the local lab:
# 1-byte PUTs into 1 and 8 containers, 5 s each, two runs of each averaged.
# The hosts, rings and services are the lab's (parts/netns.hcl). 32 users
# instead of the seed's 128: the lab's proxy has one worker on a shared
# machine.
#
#   testbeds/lab/up && benchbed setup testbeds/lab/seed003-lab.hcl
#   benchbed sweep testbeds/lab/seed003-lab.hcl

testbed "lab-seed003" {
  description = "local lab: 1-byte PUTs into 1 and 8 containers, 2 runs each (seed 003 at lab scale)"
}

include "parts/netns.hcl" {}

variant "normal" {}

workload "containers" {
  for_each          = [1, 8]
  scenario          = "../scenarios/1B_put.scenario"
  scenario_set      = { container_count = each.value, container_base = "lab003_n${each.value}" }
  users             = 32
  duration          = "5s"
  clients           = ["client1"]
  agents_per_client = 1
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

sweep {
  repeat     = 2
  warmup     = "2s"
  on_failure = "continue"
  restore    = true
}
