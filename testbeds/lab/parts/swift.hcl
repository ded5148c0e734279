# The local lab's Swift: its four servers started directly (not by
# systemd: the lab's hosts share the machine's /etc and init), one
# tempauth user bench:bench. Both shapes of the lab include it: the
# namespaces (netns.hcl) and the one host (aio.hcl).

variable "auth_key" {
  type        = string
  default     = "lab-bench-key"
  sensitive   = true
  description = "tempauth key of bench:bench (a lab-only key)"
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
