# The local lab on one host (Swift all in one) for small machines: one sshd
# on 127.0.0.1:2297 made by `testbeds/lab/up --aio`, with its own private
# /etc/swift and /srv/node; every role on that host, the disks directories.
# The same rings (one replica) and servers as the namespaces' lab
# (netns.hcl). Not a testbed on its own: ../aio.hcl includes it.

include "ssh.hcl" {}

locals {
  disks    = [for i in range(4) : "d${i}"]
  replicas = 1
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

include "rings.hcl" {}
include "swift.hcl" {}
