# Written by `benchbed import proxy1 stor1 stor2 client1` from what the hosts run (read only).
# Settings are what each conf sets differently from benchbed's built-in template as it renders
# for that host (keys the template leaves out: differently from Swift's default).

testbed "imported" {
  description   = "imported from proxy1, stor1, stor2, client1"
  swift_version = "2.30.1"
}

variable "tempauth_bench_bench_key" {
  type        = string
  sensitive   = true
  description = "[filter:tempauth] user_bench_bench's key of proxy1:/etc/swift/proxy-server.conf; give it with --var, --var-file or BENCHBED_VAR_tempauth_bench_bench_key"
}

ssh {
  user   = "root"
  config = "/var/lib/benchbed-lab/client/ssh_config"
}

host "proxy1" {
  address = "198.18.0.11"
  port    = 2222
  roles   = ["proxy"]
}

# stor1, stor2: alike but for their address
host "stor" {
  for_each = {
    stor1 = "198.18.0.21"
    stor2 = "198.18.0.22"
  }
  address = each.value
  roles   = ["object", "container", "account"]
  disks "object" {
    names = ["d0", "d1", "d2", "d3"]
  }
  disks "meta" {
    names = ["m0"]
  }
}

host "client1" {
  address = "198.18.0.31"
  roles   = ["client"]
}

# from proxy1:/etc/swift/object.builder
ring "object" {
  part_power     = 8
  replicas       = 2
  min_part_hours = 0
  disks          = "object"
  port           = 6200
}

# from proxy1:/etc/swift/container.builder
ring "container" {
  part_power     = 8
  replicas       = 2
  min_part_hours = 0
  disks          = "meta"
  port           = 6201
}

# from proxy1:/etc/swift/account.builder
ring "account" {
  part_power     = 8
  replicas       = 2
  min_part_hours = 0
  disks          = "meta"
  port           = 6202
}

# manager direct: a detached process with pid file /var/run/swift/proxy-server.pid on proxy1
service "proxy-server" {
  role    = "proxy"
  manager = "direct"
  # from proxy1:/etc/swift/proxy-server.conf (proxy1)
  settings = {
    DEFAULT = {
      workers = 1
    }
    "filter:cache" = {
      memcache_servers         = "127.0.0.1:11211"
      memcache_max_connections = 10
    }
  }
}

# manager direct: a detached process with pid file /var/run/swift/object-server.pid on stor1
service "object-server" {
  role    = "object"
  manager = "direct"
  # from stor1:/etc/swift/object-server.conf (stor1, stor2)
  settings = {
    DEFAULT = {
      disable_fallocate = true
      workers           = 2
    }
  }
}

# manager direct: a detached process with pid file /var/run/swift/container-server.pid on stor1
service "container-server" {
  role    = "container"
  manager = "direct"
  # from stor1:/etc/swift/container-server.conf (stor1, stor2)
  settings = {
    DEFAULT = {
      disable_fallocate = true
      workers           = 1
    }
  }
}

# manager direct: a detached process with pid file /var/run/swift/account-server.pid on stor1
service "account-server" {
  role    = "account"
  manager = "direct"
  # from stor1:/etc/swift/account-server.conf (stor1, stor2)
  settings = {
    DEFAULT = {
      disable_fallocate = true
      workers           = 1
    }
  }
}

variant "baseline" {
  description = "the cluster as imported"
}

workload "get" {
  # A starting point: 64 KiB GETs of 1000 objects by 16 users for 20 s.
  scenario = {
    sizes           = [{ name = "64KiB", size_min = 65536, size_max = 65536 }]
    initial_files   = { "64KiB" = 1000 }
    container_base  = "benchbed_import"
    container_count = 10
    crud_profile    = [0, 1, 0, 0]
    user_count      = 16
    run_seconds     = 20
  }
  clients = ["client1"]
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.tempauth_bench_bench_key
  }
}

# Its initial objects, put once before the sweep's cells.
prefill {
  workloads = ["get"]
}
