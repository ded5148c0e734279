# Seed 000's table, in its order: normal, threads_per_disk=1 (which Swift
# 2.30 ignores: benchbed says so), servers_per_port=1..4 with one port per
# disk. The variants of lab.hcl and aio.hcl, which include this file.

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
