# The seed's lab (testbeds/swiftstack-2015.hcl) at the scale of one machine:
# the hosts are network namespaces made by testbeds/lab/up (198.18.0.0/24),
# each with its own sshd, /etc/swift and /srv/node; the disks are
# directories. Same variants and workload shape as the seed, scaled down.
#
#   testbeds/lab/up && benchbed setup testbeds/lab/lab.hcl

testbed "lab" {
  description = "local lab: 64 KiB GETs, servers_per_port sweep (seed 000 at lab scale)"
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
