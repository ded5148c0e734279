# The lab (testbeds/lab/lab.hcl's hosts, rings and services) with s3api in
# its proxy's pipeline, and the same 64 KiB GETs through Swift's API and
# through S3 side by side on the same policy, plus a mixed S3 workload with
# multipart uploads: "what does S3 cost us over the Swift API on the same
# proxy?" (docs/s3.md).
#
#   testbeds/lab/up && benchbed setup testbeds/lab/s3-lab.hcl && benchbed sweep testbeds/lab/s3-lab.hcl

testbed "s3-lab" {
  description = "local lab: 64 KiB GETs through Swift's API and through S3 (s3api) side by side, proxy workers 1 and 2"
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
    # s3api after cache, before tempauth; slo after it for multipart uploads.
    "pipeline:main" = { pipeline = "catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl s3api tempauth copy slo dlo versioned_writes symlink proxy-logging proxy-server" }
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

# A proxy axis applies to both APIs alike.
variant "proxy_workers" {
  name = "proxy_workers=2"
  set "proxy-server" {
    DEFAULT = { workers = 2 }
  }
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

# The same scenario through S3: its containers become the buckets
# lab-64k-000000-default-policy..., on the same (default) policy.
workload "64K_get_s3" {
  api               = "s3"
  scenario          = "64K_get_lab.scenario"
  users             = 64
  duration          = "8s"
  clients           = ["client1"]
  agents_per_client = 1
  verify            = true
  auth {
    url        = "http://198.18.0.11:8080"
    user       = "bench:bench"
    key        = var.auth_key
    path_style = true
  }
}

# Creates, reads, updates and deletes through S3, a 6 MiB class as
# multipart uploads (parts of 5 MiB, S3's least), reads verified.
workload "mixed_s3" {
  api = "s3"
  scenario = {
    sizes = [{ name = "small", size_min = 4096, size_max = 65536 },
             { name = "multipart", size_min = 6291456, size_max = 6291456, crud_profile = [1, 3, 0, 1] }]
    initial_files   = { small = 200, multipart = 4 }
    container_base  = "lab_s3mix"
    container_count = 4
    crud_profile    = [2, 5, 1, 1]
    segment_size    = 1048576
    user_count      = 8
    run_seconds     = 8
  }
  users    = 8
  duration = "8s"
  clients  = ["client1"]
  verify   = true
  auth {
    url        = "http://198.18.0.11:8080"
    user       = "bench:bench"
    key        = var.auth_key
    path_style = true
  }
}

prefill {
  workloads   = ["64K_get", "64K_get_s3", "mixed_s3"]
  concurrency = 16
}

# Three short runs of each variant, interleaved (every variant's first,
# then every second, then every third), give the verdict an interval from
# repeats that share the lab's drift, where one long run each could not.
sweep {
  repeat     = 2
  interleave = true
  warmup     = "2s"
  on_failure = "continue"
  restore    = true
}
