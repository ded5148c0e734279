# Storage policies on the netns lab (testbeds/lab/up): replication 2x
# against erasure coding 4+2 and 6+2 on the same 8 object disks (2 storage
# hosts x 4 directories), a GET and a PUT workload per policy (one for_each
# each: one sweep, one table), and 64 MiB objects uploaded as static large
# objects in 8 MiB segments. Every GET's body is verified against what was
# written (verify = true; EC workloads verify by default). Two proxies:
# proxy1 and a second proxy server on stor2; the GET workloads spread their
# agents over both (endpoints), and each cell records what each proxy
# served.
#
#   testbeds/lab/up && benchbed setup testbeds/lab/policies-lab.hcl
#   benchbed prefill testbeds/lab/policies-lab.hcl
#   benchbed sweep testbeds/lab/policies-lab.hcl && benchbed report runs/<run>
#
# The EC policies need python3-pyeclib and liberasurecode1 on the proxy and
# object hosts (Debian's swift packages bring them; scripts/deps.sh lists
# them); liberasurecode_rs_vand is the backend liberasurecode itself carries.

testbed "policies-lab" {
  description = "local lab: replication 2x vs EC 4+2 vs EC 6+2, GET (through two proxies) and PUT per policy, 64 MiB large objects"
}

include "parts/netns.hcl" {}

locals {
  policies = ["rep2", "ec42", "ec62"]
}

# stor2 also runs the second proxy (with its own memcached: each agent
# authenticates at the proxy it uses).
override {
  host "stor2" {
    roles = ["object", "container", "account", "proxy"]
  }
}

# One ring per policy, all on the same 8 object disks and port: the lab's
# object (policy 0, rep2), object-1 (ec42: 4 + 2 = 6 fragments),
# object-2 (ec62: 6 + 2 = 8 fragments, one per disk).
ring "object-1" {
  part_power     = 8
  replicas       = 6
  min_part_hours = 0
  disks          = "object"
  port           = 6200
}

ring "object-2" {
  part_power     = 8
  replicas       = 8
  min_part_hours = 0
  disks          = "object"
  port           = 6200
}

policy "rep2" {
  index   = 0
  type    = "replication"
  default = true
  aliases = ["replicated"]
}

policy "ec42" {
  index                   = 1
  type                    = "erasure_coding"
  ec_type                 = "liberasurecode_rs_vand"
  ec_num_data_fragments   = 4
  ec_num_parity_fragments = 2
  ec_object_segment_size  = 1048576
}

policy "ec62" {
  index                   = 2
  type                    = "erasure_coding"
  ec_type                 = "liberasurecode_rs_vand"
  ec_num_data_fragments   = 6
  ec_num_parity_fragments = 2
}

variant "normal" {}

# EC GETs with concurrent_gets: an ordinary variant setting.
variant "concurrent_gets" {
  set "proxy-server" {
    settings = {
      "app:proxy-server" = { concurrent_gets = true, concurrency_timeout = 0.2, concurrent_ec_extra_requests = 1 }
    }
  }
}

# GETs through both proxies: agent 0 uses proxy1, agent 1 stor2's proxy.
workload "get" {
  for_each  = local.policies
  name      = "64K_get@${each.value}"
  policy    = each.value
  verify    = true
  endpoints = ["http://198.18.0.11:8080/auth/v1.0", "http://198.18.0.22:8080/auth/v1.0"]
  scenario = {
    sizes          = [{ name = "64KiB", size_min = 65536, size_max = 65536 }]
    initial_files  = { "64KiB" = 500 }
    container_base = "pol_get"
    container_count = 10
    crud_profile   = [0, 1, 0, 0]
    user_count     = 16
    run_seconds    = 15
  }
  users    = 16
  duration = "15s"
  clients  = ["client1"]
  agents_per_client = 2
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

workload "put" {
  for_each = local.policies
  name     = "64K_put@${each.value}"
  policy   = each.value
  scenario = {
    sizes          = [{ name = "64KiB", size_min = 65536, size_max = 65536 }]
    initial_files  = { "64KiB" = 10 }
    container_base = "pol_put"
    container_count = 10
    crud_profile   = [1, 0, 0, 0]
    user_count     = 16
    run_seconds    = 15
  }
  users    = 16
  duration = "15s"
  clients  = ["client1"]
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

# 64 MiB objects as static large objects of 8 MiB segments (segments in
# <container>_segments), written, read whole, verified and deleted with
# ?multipart-manifest=delete, in the EC 4+2 policy.
workload "large" {
  name     = "64M_slo@ec42"
  policy   = "ec42"
  verify   = true
  scenario = {
    sizes          = [{ name = "64MiB", size_min = 67108864, size_max = 67108864 }]
    initial_files  = { "64MiB" = 8 }
    container_base = "pol_large"
    container_count = 2
    crud_profile   = [1, 3, 0, 1]
    user_count     = 4
    run_seconds    = 20
    segment_size   = 8388608
  }
  users    = 4
  duration = "20s"
  clients  = ["client1"]
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

prefill {
  workloads   = ["get", "64M_slo@ec42"]
  concurrency = 8
}

sweep {
  repeat     = 1
  warmup     = "3s"
  on_failure = "continue"
  restore    = true
}
