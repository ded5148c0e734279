# Seed 000's cluster (SwiftStack, 2015), described once: two proxies and
# two storage nodes with 32 and 29 object disks and two SSDs for accounts
# and containers, their rings, and the auth user. Not a testbed on its
# own: the seeds that ran on it, or on its kind, include it
# (../swiftstack-2015.hcl, ../seed003-containers.hcl) and add their
# services' settings, variants, workloads and sweep.
#
# Taken from seed 000: hosts and hardware. Not in the seed, and so assumed
# here (marked "assumed" below): the storage nodes' addresses, the ring
# part powers, disk device paths, and the auth user and key.

variable "auth_user" {
  type        = string
  default     = "bench1:bench1" # assumed: the seed's account is AUTH_bench1
  description = "tempauth user of the benchmark account"
}

variable "auth_key" {
  type        = string
  sensitive   = true
  default     = "change-me" # assumed: set the real key with BENCHBED_VAR_auth_key
  description = "key of auth_user"
}

locals {
  cpu_proxy = "12x E5-2650 0 @ 2.00GHz (24 HT cores)"
  cpu_stor  = "12x E5-2620 0 @ 2.00GHz (24 HT cores)"
  kernel    = "3.13.0-53-generic"
}

ssh {
  user        = "root"
  parallelism = 32
}

host "proxy1" {
  address = "192.168.201.51" # the ssbench master's --zmq-host
  roles   = ["proxy", "client"]
  hardware {
    cpu    = local.cpu_proxy
    memory = "32 GiB"
    nic    = "10 Gbps"
    os     = "Ubuntu 12.04.5"
    kernel = local.kernel
  }
}

host "proxy2" {
  address = "192.168.201.52" # assumed, next to proxy1
  roles   = ["proxy", "client"]
  hardware {
    cpu    = local.cpu_proxy
    memory = "32 GiB"
    nic    = "10 Gbps"
    os     = "Ubuntu 14.04.2"
    kernel = local.kernel
  }
}

host "stor1" {
  address = "192.168.201.61" # assumed
  roles   = ["object", "container", "account"]
  hardware {
    cpu    = local.cpu_stor
    memory = "64 GiB"
    nic    = "10 Gbps"
    disks  = "32x 3 TB object disks, 2x 120 GB account/container SSDs"
    os     = "Ubuntu 12.04.5"
    kernel = local.kernel
  }
  disks "object" { names = [for i in range(32) : format("d%d", i)] }
  disks "meta" { names = ["ssd0", "ssd1"] }
}

host "stor2" {
  address = "192.168.201.62" # assumed
  roles   = ["object", "container", "account"]
  hardware {
    cpu    = local.cpu_stor
    memory = "64 GiB"
    nic    = "10 Gbps"
    disks  = "29x 3 TB object disks, 2x 120 GB account/container SSDs"
    os     = "Ubuntu 12.04.5"
    kernel = local.kernel
  }
  disks "object" { names = [for i in range(29) : format("d%d", i)] }
  disks "meta" { names = ["ssd0", "ssd1"] }
}

# Part powers are assumed: the seed does not give them.
ring "object" {
  part_power = 18
  replicas   = 3
  disks      = "object"
  port       = 6200
  # One port per disk from 6210 (assumed): the default, port + 1, would give
  # d0 and d1 the container and account servers' ports 6201 and 6202.
  port_base = 6210
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

