# The local lab, described once: the seed's lab (testbeds/swiftstack-2015.hcl)
# at the scale of one machine. The hosts are network namespaces made by
# testbeds/lab/up (198.18.0.0/24), each with its own sshd, /etc/swift and
# /srv/node; the disks are directories. Not a testbed on its own: the
# experiments of testbeds/lab include it (lab.hcl, seed003-lab.hcl,
# seed003-fill-lab.hcl, faults-lab.hcl, policies-lab.hcl) and add their
# variants, workloads and sweep.
#
#   testbeds/lab/up && benchbed setup testbeds/lab/lab.hcl

include "ssh.hcl" {}

locals {
  disks    = [for i in range(4) : "d${i}"]
  replicas = 2
}

host "proxy1" {
  address = "198.18.0.11"
  roles   = ["proxy"]
  hardware {
    kind = "network namespace on the local machine"
  }
}

# The storage hosts differ only in their address: one block, one host per
# element of for_each, each named by its key (an override names one of
# them alone: faults-lab.hcl's of stor1).
host "stor" {
  for_each = { stor1 = "198.18.0.21", stor2 = "198.18.0.22" }
  address  = each.value
  roles    = ["object", "container", "account"]
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

include "rings.hcl" {}
include "swift.hcl" {}
