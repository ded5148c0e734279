# The local lab on one host (Swift all in one) for small machines: one sshd
# on 127.0.0.1:2297 made by `testbeds/lab/up --aio`, with its own private
# /etc/swift and /srv/node; every role on that host, the disks directories.
#
#   testbeds/lab/up --aio && benchbed setup testbeds/lab/aio.hcl

testbed "lab-aio" {
  description = "local lab on one host: 64 KiB GETs, servers_per_port sweep (seed 000 at lab scale)"
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

host "aio" {
  address = "127.0.0.1"
  port    = 2297
  roles   = ["proxy", "object", "container", "account", "client"]
  hardware {
    kind = "the local machine (private mount namespace)"
  }
  disks "object" { names = local.disks }
  disks "meta" { names = ["m0"] }
}

# min_part_hours = 0: in the lab a changed testbed (one more disk) moves
# partitions at once; a real cluster keeps 1 hour or more.
ring "object" {
  part_power     = 8
  replicas       = 1
  min_part_hours = 0
  disks          = "object"
  port           = 6200
  port_base      = 6210
}

ring "container" {
  part_power     = 8
  replicas       = 1
  min_part_hours = 0
  disks          = "meta"
  port           = 6201
  port_base      = 6220
}

ring "account" {
  part_power     = 8
  replicas       = 1
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

# The seed's table, in its order: normal, threads_per_disk=1 (which Swift
# 2.30 ignores: benchbed says so), servers_per_port=1..4 with one port per disk.
variant "normal" {}

variant "threads_per_disk" {
  name = "threads_per_disk=1"
  set "object-server" {
    DEFAULT = { workers = 1, threads_per_disk = 1 }
  }
}

variant "servers_per_port" {
  for_each = [1, 2, 3, 4]
  name     = "servers_per_port=${each.value}"
  set "object-server" {
    DEFAULT = { workers = 1, servers_per_port = each.value }
  }
  ring "object" { port_per_disk = true }
}

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
