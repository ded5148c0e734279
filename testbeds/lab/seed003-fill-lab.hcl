# Seed 003's second experiment (testbeds/seed003-containers.hcl, workload
# "fill") at the scale of the local lab: 1-byte PUTs from 32 users into one
# empty container until it holds 20,000 objects, their latency reported in
# 10 buckets of the container's fill (2,000 objects each). The seed's
# question: does a write take longer as the container fills?
#
# Two variants compare the container server's db_preallocation (the
# container database grows with every object the container lists): off
# (Swift's default) and on. The hosts, rings and services are those of
# testbeds/lab/lab.hcl.
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

variable "lab_dir" {
  type        = string
  default     = "/var/lib/benchbed-lab"
  description = "state directory of testbeds/lab/up (client key, known_hosts, ssh_config)"
}

variable "auth_key" {
  type        = string
  default     = "lab-bench-key"
  sensitive   = true
  description = "tempauth key of bench:bench (a lab-only key)"
}

locals {
  disks = [for i in range(4) : "d${i}"]
}

ssh {
  user            = "root"
  config          = "${var.lab_dir}/client/ssh_config"
  identity_files  = ["${var.lab_dir}/client/id_ed25519"]
  known_hosts     = "${var.lab_dir}/client/known_hosts"
  parallelism     = 8
  connect_timeout = "5s"
}

host "proxy1" {
  address = "198.18.0.11"
  roles   = ["proxy"]
  hardware {
    kind = "network namespace on the local machine"
  }
}

host "stor1" {
  address = "198.18.0.21"
  roles   = ["object", "container", "account"]
  hardware {
    kind = "network namespace on the local machine"
  }
  disks "object" { names = local.disks }
  disks "meta" { names = ["m0"] }
}

host "stor2" {
  address = "198.18.0.22"
  roles   = ["object", "container", "account"]
  hardware {
    kind = "network namespace on the local machine"
  }
  disks "object" { names = local.disks }
  disks "meta" { names = ["m0"] }
}

host "client1" {
  address = "198.18.0.31"
  roles   = ["client"]
  hardware {
    kind = "network namespace on the local machine"
  }
}

# min_part_hours = 0: in the lab a changed testbed (one more disk) moves
# partitions at once; a real cluster keeps 1 hour or more.
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

service "proxy-server" {
  role     = "proxy"
  template = "proxy-server"
  path     = "/etc/swift/proxy-server.conf"
  manager  = "direct"
  settings = {
    DEFAULT = { bind_port = 8080, workers = 1 }
    "filter:tempauth" = { user_bench_bench = "${var.auth_key} .admin" }
    "filter:cache" = { memcache_servers = "127.0.0.1:11211", memcache_max_connections = 10 }
  }
}

service "object-server" {
  role     = "object"
  template = "object-server"
  path     = "/etc/swift/object-server.conf"
  manager  = "direct"
  settings = {
    DEFAULT = { workers = 2, servers_per_port = 0, mount_check = false, disable_fallocate = true }
  }
}

service "container-server" {
  role     = "container"
  template = "container-server"
  path     = "/etc/swift/container-server.conf"
  manager  = "direct"
  settings = {
    DEFAULT = { workers = 1, mount_check = false, disable_fallocate = true }
  }
}

service "account-server" {
  role     = "account"
  template = "account-server"
  path     = "/etc/swift/account-server.conf"
  manager  = "direct"
  settings = {
    DEFAULT = { workers = 1, mount_check = false, disable_fallocate = true }
  }
}

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
