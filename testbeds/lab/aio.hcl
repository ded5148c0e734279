# The local lab on one host (Swift all in one) for small machines: one sshd
# on 127.0.0.1:2297 made by `testbeds/lab/up --aio`, with its own private
# /etc/swift and /srv/node; every role on that host, the disks directories.
# The lab is parts/aio.hcl; the variants are seed 000's (parts/seed000.hcl), as
# lab.hcl's.
#
#   testbeds/lab/up --aio && benchbed setup testbeds/lab/aio.hcl

testbed "lab-aio" {
  description = "local lab on one host: 64 KiB GETs, servers_per_port sweep (seed 000 at lab scale)"
}

include "parts/aio.hcl" {}
include "parts/seed000.hcl" {}

workload "64K_get" {
  scenario          = "64K_get_lab.scenario"
  users             = 64
  duration          = "20s"
  clients           = ["aio"]
  agents_per_client = 1
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
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
