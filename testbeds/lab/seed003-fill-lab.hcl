# Seed 003's second experiment (testbeds/seed003-containers.hcl, workload
# "fill") at the scale of the local lab: 1-byte PUTs from 32 users into one
# empty container until it holds 20,000 objects, their latency reported in
# 10 buckets of the container's fill (2,000 objects each). The seed's
# question: does a write take longer as the container fills?
#
# Two variants compare the container server's db_preallocation (the
# container database grows with every object the container lists): off
# (Swift's default) and on. The hosts, rings and services are the lab's
# (parts/netns.hcl).
#
#   testbeds/lab/up && benchbed setup testbeds/lab/seed003-fill-lab.hcl
#   benchbed sweep testbeds/lab/seed003-fill-lab.hcl
#   benchbed sweep -var fill_objects=2000 testbeds/lab/seed003-fill-lab.hcl   # a short one

testbed "lab-seed003-fill" {
  description = "local lab: 1-byte PUT latency against container fill, 20,000 objects (seed 003's second experiment at lab scale)"
}

variable "fill_objects" {
  type        = number
  default     = 20000
  description = "objects the container holds at the end of each run"
}

include "parts/netns.hcl" {}

variant "normal" {}

variant "db_preallocation" {
  name = "db_preallocation=on"
  set "container-server" {
    settings = { "app:container-server" = { db_preallocation = "True" } }
  }
}

# One container (container_base of its own, so that no other run's objects
# are in it), filled from empty: every repeat deletes what it created.
workload "fill" {
  scenario          = "../scenarios/1B_put.scenario"
  scenario_set      = { container_count = 1, container_base = "lab003_fill" }
  users             = 32
  clients           = ["client1"]
  agents_per_client = 1
  fill {
    container_objects = var.fill_objects
    buckets           = 10
  }
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

sweep {
  repeat     = 1
  warmup     = "2s"
  on_failure = "continue"
  restore    = true
}
