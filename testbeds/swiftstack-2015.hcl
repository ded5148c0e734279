# Seed 000's lab (SwiftStack, 2015): 64 KiB GETs for one hour against two
# proxies and two storage nodes, comparing the object server's "normal"
# workers, threads_per_disk=1 and servers_per_port=1..4.
#
# The cluster (hosts, rings, the auth user) is parts/swiftstack-2015.hcl.
# Taken from the seed: the proxy, object and container settings of its
# confs, the six variants in the order of its table, the scenario, 2048
# users for one hour from 4 agents on each proxy host. Not in the seed, and
# so assumed here: the account server's settings.

testbed "swiftstack-2015" {
  description = "64 KiB GETs, 1 hour: normal vs threads_per_disk vs servers_per_port (seed 000)"
}

include "parts/swiftstack-2015.hcl" {}

service "proxy-server" {
  role = "proxy"
  path = "/etc/swift/proxy-server.conf"
  settings = {
    DEFAULT = { backlog = 4096, workers = 16, client_timeout = 60 }
    "pipeline:main" = {
      pipeline = "catch_errors healthcheck proxy-logging cache formpost tempurl swc swiftstack_authen swiftstack_authz dlo slo proxy-logging proxy-server"
    }
    "app:proxy-server" = {
      use                         = "egg:swift#proxy"
      account_autocreate          = "True"
      allow_account_management    = true
      recheck_account_existence   = 60
      recheck_container_existence = 60
      object_chunk_size           = 65536
      client_chunk_size           = 65536
      node_timeout                = 10
      conn_timeout                = "10.0"
      post_quorum_timeout         = 0.01
      error_suppression_interval  = 60
      error_suppression_limit     = 10
      object_post_as_copy         = "False"
      put_queue_depth             = 10
      sorting_method              = "timing"
      timing_expiry               = 300
    }
    "filter:cache" = {
      memcache_servers = "192.168.3.51:11211,192.168.3.52:11211"
      max_connections  = 10
      connect_timeout  = 0.5
      pool_timeout     = "2.0"
      tries            = 3
      io_timeout       = "4.0"
    }
  }
}

# The object server as the seed's conf has it, with "normal"'s 29 workers and
# no servers_per_port; the variants change workers, threads_per_disk and
# servers_per_port.
service "object-server" {
  role = "object"
  path = "/etc/swift/object-server.conf"
  settings = {
    DEFAULT = {
      backlog            = 4096
      workers            = 29
      mount_check        = true
      servers_per_port   = 0
      node_timeout       = 20
      conn_timeout       = "10.0"
      network_chunk_size = 65536
      disk_chunk_size    = 65536
    }
    "app:object-server" = {
      slow               = 0
      mb_per_sync        = 512
      log_requests       = "True"
      threads_per_disk   = 0
      replication_server = "False"
      disk_chunk_size    = 65536
    }
    "object-updater" = {
      interval     = 300
      concurrency  = 2
      node_timeout = 20
      conn_timeout = "10.0"
      slowdown     = 0.01
    }
    "object-auditor" = {
      disk_chunk_size            = 1048576
      files_per_second           = 10
      bytes_per_second           = 1000000
      zero_byte_files_per_second = 20
    }
  }
}

# "We always use a separate object-server for replication."
service "object-replication-server" {
  role     = "object"
  template = "object-server"
  path     = "/etc/swift/object-server-replication.conf"
  settings = {
    # bind_port assumed: the seed's replication servers listened on the ring's
    # replication port, which benchbed does not model; not the object
    # server's 6200.
    DEFAULT             = { backlog = 4096, workers = 29, mount_check = true, bind_port = 6300 }
    "app:object-server" = { replication_server = "True" }
    "object-replicator" = {
      run_pause           = 60
      concurrency         = 1
      stats_interval      = 60
      rsync_timeout       = 900
      rsync_io_timeout    = 30
      rsync_bwlimit       = 0
      http_timeout        = 60
      node_timeout        = 10
      lockup_timeout      = 1800
      reclaim_age         = 7200
      ring_check_interval = 15
      disk_chunk_size     = 1048576
    }
  }
}

service "container-server" {
  role = "container"
  path = "/etc/swift/container-server.conf"
  settings = {
    DEFAULT = { backlog = 4096, workers = 8, mount_check = true }
    "app:container-server" = {
      node_timeout       = 4
      conn_timeout       = "10.0"
      allow_versions     = "True"
      db_preallocation   = "False"
      replication_server = "False"
    }
    "container-updater" = {
      interval                 = 300
      concurrency              = 4
      node_timeout             = 4
      conn_timeout             = "10.0"
      slowdown                 = 0.001
      account_suppression_time = 60
      db_preallocation         = "False"
    }
    "container-auditor" = {
      interval              = 1800
      containers_per_second = 200
      db_preallocation      = "False"
    }
  }
}

service "container-replication-server" {
  role     = "container"
  template = "container-server"
  path     = "/etc/swift/container-server-replication.conf"
  settings = {
    # bind_port assumed, like the object replication server's.
    DEFAULT                = { backlog = 4096, workers = 8, mount_check = true, bind_port = 6301 }
    "app:container-server" = { replication_server = "True" }
    "container-replicator" = {
      per_diff         = 1000
      concurrency      = 8
      run_pause        = 30
      node_timeout     = 10
      conn_timeout     = "10.0"
      reclaim_age      = 7200
      db_preallocation = "False"
    }
  }
}

# Assumed: the seed gives no account-server.conf; these mirror the container
# server's.
service "account-server" {
  role = "account"
  path = "/etc/swift/account-server.conf"
  settings = {
    DEFAULT = { backlog = 4096, workers = 8, mount_check = true }
  }
}

# The six rows of the seed's table, in its order.
variant "normal" {
  description = "normal; 29 workers"
}

variant "threads_per_disk" {
  name = "threads_per_disk=1"
  set "object-server" {
    DEFAULT  = { workers = 6 }
    settings = { "app:object-server" = { threads_per_disk = 1 } }
  }
}

variant "servers_per_port" {
  for_each = [1, 2, 3, 4]
  name     = "servers_per_port=${each.value}"
  set "object-server" {
    DEFAULT = { workers = 6, servers_per_port = each.value }
  }
  ring "object" { port_per_disk = true } # ports switched, no partition moves
}

workload "64K_get" {
  scenario          = "scenarios/64K_get_base1.scenario"
  users             = 2048
  duration          = "1h"
  clients           = ["proxy1", "proxy2"]
  agents_per_client = 4
  auth {
    url  = "http://127.0.0.1/auth/v1.0"
    user = var.auth_user
    key  = var.auth_key
  }
}

# 10 million 64 KiB objects in 200 containers: the scenario's initial_files
# and container_count. The seed HEADed every object before each run.
prefill {
  workloads         = ["64K_get"]
  verify            = "head"
  clients           = ["proxy1", "proxy2"]
  agents_per_client = 4
  concurrency       = 256 # ssbench-worker --concurrency 256
}

sweep {
  repeat     = 1
  on_failure = "continue"
  restore    = true
}
