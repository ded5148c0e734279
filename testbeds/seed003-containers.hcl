# Seed 003 (openstack mailing list, 2013): 128 threads write 1-byte objects
# into N containers, N in 1, 32, 64, 128, 256, 512, for 15 minutes; each N
# run three times and averaged. The seed's figures: about 87K writes in 15
# minutes into one container, about 135K into 32.
#
# The seed ran against Rackspace Cloud Files, whose configuration it does
# not know; here it runs against the kind of cluster seed 000 describes
# (parts/swiftstack-2015.hcl, which testbeds/swiftstack-2015.hcl includes
# too): two proxies, two storage nodes with 32 and 29 object disks and two SSDs for accounts and containers. Assumed (the
# seed gives none of it): addresses, part powers, the services' settings,
# that each N writes into containers of its own (container_base), and the
# auth user and key.
#
# The workload block sweeps its own parameter: for_each gives one workload
# (an axis point) per N, named containers=N, and scenario_set overrides the
# scenario file's container_count for each. The sweep runs every axis point
# three times (sweep.repeat) and its table averages the three.
#
# The seed's second experiment asks whether a write takes longer as the
# container fills: the time to write a blob into one container, averaged
# over three runs (about 12.58 ms while the container held fewer than 1.6 M
# objects, 13.29 ms above). Workload "fill" measures it: PUTs into one empty
# container until it holds 3.2 M objects (assumed: the seed gives no end;
# twice its 1.6 M, so that 1.6 M is the edge between the 5th and 6th of 10
# buckets), each PUT's latency recorded in the bucket of the container's
# object count when it started. Assumed too: the first experiment's 128
# users. At that experiment's single-container rate (87K writes in 15 min)
# each of the three runs takes about 9 hours.

testbed "seed003-containers" {
  description = "1-byte PUTs from 128 users into 1..512 containers, 15 min, and into one container up to 3.2 M objects, 3 runs each (seed 003)"
}

# Seed 000's cluster: hosts, rings, the auth user.
include "parts/swiftstack-2015.hcl" {}

locals {
  containers = [1, 32, 64, 128, 256, 512]
}

service "proxy-server" {
  role = "proxy"
  settings = {
    DEFAULT = { bind_port = 8080, backlog = 4096, workers = 16, client_timeout = 60 }
    "app:proxy-server" = {
      account_autocreate = "True"
      node_timeout       = 10
      conn_timeout       = "0.5"
    }
    "filter:tempauth" = { user_bench1_bench1 = "${var.auth_key} .admin" }
  }
}

service "object-server" {
  role = "object"
  settings = {
    DEFAULT = { backlog = 4096, workers = 29, mount_check = true }
  }
}

service "container-server" {
  role = "container"
  settings = {
    DEFAULT                = { backlog = 4096, workers = 8, mount_check = true }
    "app:container-server" = { node_timeout = 4, db_preallocation = "False" }
    "container-updater"    = { interval = 300, concurrency = 4 }
  }
}

service "account-server" {
  role = "account"
  settings = {
    DEFAULT = { backlog = 4096, workers = 8, mount_check = true }
  }
}

variant "normal" {}

# One workload per container count: containers=1 .. containers=512.
workload "containers" {
  for_each = local.containers
  scenario = "scenarios/1B_put.scenario" # 1-byte objects, create only
  scenario_set = {
    container_count = each.value
    container_base  = "seed003_n${each.value}"
  }
  users             = 128
  duration          = "15m"
  clients           = ["proxy1", "proxy2"]
  agents_per_client = 2
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = var.auth_user
    key  = var.auth_key
  }
}

# Seed 003's second experiment: write latency against the container's fill.
workload "fill" {
  scenario = "scenarios/1B_put.scenario"
  scenario_set = {
    container_count = 1
    container_base  = "seed003_fill"
  }
  users             = 128
  clients           = ["proxy1", "proxy2"]
  agents_per_client = 2
  fill {
    container_objects = 3200000
    buckets           = 10
  }
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = var.auth_user
    key  = var.auth_key
  }
}

# No prefill: the runs only create objects, and each run deletes what it
# created when it ends, so every repeat starts from empty containers.
sweep {
  repeat     = 3
  warmup     = "30s"
  on_failure = "continue"
  restore    = true
}
