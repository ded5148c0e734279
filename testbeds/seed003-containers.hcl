# Seed 003 (openstack mailing list, 2013): 128 threads write 1-byte objects
# into N containers, N in 1, 32, 64, 128, 256, 512, for 15 minutes; each N
# run three times and averaged. The seed's figures: about 87K writes in 15
# minutes into one container, about 135K into 32.
#
# The seed ran against Rackspace Cloud Files, whose configuration it does
# not know; here it runs against the kind of cluster seed 000 describes
# (testbeds/swiftstack-2015.hcl): two proxies, two storage nodes with 32 and
# 29 object disks and two SSDs for accounts and containers. Assumed (the
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

variable "auth_user" {
  type        = string
  default     = "bench1:bench1" # assumed
  description = "tempauth user of the benchmark account"
}

variable "auth_key" {
  type        = string
  sensitive   = true
  default     = "change-me" # assumed: set the real key with BENCHBED_VAR_auth_key
  description = "key of auth_user"
}

locals {
  containers = [1, 32, 64, 128, 256, 512]
  cpu_proxy  = "12x E5-2650 0 @ 2.00GHz (24 HT cores)"
  cpu_stor   = "12x E5-2620 0 @ 2.00GHz (24 HT cores)"
}

ssh {
  user        = "root"
  parallelism = 32
}

host "proxy1" {
  address = "192.168.201.51"
  roles   = ["proxy", "client"]
  hardware {
    cpu    = local.cpu_proxy
    memory = "32 GiB"
    nic    = "10 Gbps"
  }
}

host "proxy2" {
  address = "192.168.201.52"
  roles   = ["proxy", "client"]
  hardware {
    cpu    = local.cpu_proxy
    memory = "32 GiB"
    nic    = "10 Gbps"
  }
}

host "stor1" {
  address = "192.168.201.61"
  roles   = ["object", "container", "account"]
  hardware {
    cpu    = local.cpu_stor
    memory = "64 GiB"
    nic    = "10 Gbps"
    disks  = "32x 3 TB object disks, 2x 120 GB account/container SSDs"
  }
  disks "object" { names = [for i in range(32) : format("d%d", i)] }
  disks "meta" { names = ["ssd0", "ssd1"] }
}

host "stor2" {
  address = "192.168.201.62"
  roles   = ["object", "container", "account"]
  hardware {
    cpu    = local.cpu_stor
    memory = "64 GiB"
    nic    = "10 Gbps"
    disks  = "29x 3 TB object disks, 2x 120 GB account/container SSDs"
  }
  disks "object" { names = [for i in range(29) : format("d%d", i)] }
  disks "meta" { names = ["ssd0", "ssd1"] }
}

ring "object" {
  part_power = 18
  replicas   = 3
  disks      = "object"
  port       = 6200
  port_base  = 6210
}

# Container databases take every write's update: they live on the SSDs.
ring "container" {
  part_power = 14
  replicas   = 3
  disks      = "meta"
  port       = 6201
}

ring "account" {
  part_power = 12
  replicas   = 3
  disks      = "meta"
  port       = 6202
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
