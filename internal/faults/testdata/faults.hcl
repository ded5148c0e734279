testbed "faults" {}
host "proxy1" {
  address = "10.0.0.1"
  roles   = ["proxy"]
}
host "stor1" {
  address = "10.0.0.2"
  roles   = ["object"]
  disks "object" {
    names   = ["d1", "d2"]
    devices = ["/dev/vdb", "/dev/vdc"]
  }
}
host "client1" {
  address = "10.0.0.9"
  roles   = ["client"]
}
ring "object" {
  part_power = 8
  disks      = "object"
}
service "proxy-server" { role = "proxy" }
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { mount_check = true, servers_per_port = 2 } }
}
variant "faults" {
  ring "object" { port_per_disk = true }
  fault "slow_disk" {
    hosts            = ["stor1"]
    disks            = ["d1"]
    at               = 10
    for              = 20
    read_bytes_per_s = 1048576
  }
  fault "partition" {
    role    = "object"
    service = "object-server"
    at      = 35
    for     = 5
  }
  fault "rebalance" {
    hosts  = ["stor1"]
    disks  = ["d2"]
    ring   = "object"
    weight = 0
    at     = 45
    for    = "end"
  }
}
workload "get" {
  scenario    = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 60 }
  storage_url = "http://10.0.0.1:8080/v1/AUTH_a"
  token       = "t"
}
