testbed "broken" {}
host "h1" {
  address = "127.0.0.1"
  roles   = ["object", "client"]
  disks "d" { names = ["d1", "d2"] }
}
ring "object" {
  part_power = 8
  disks      = "d"
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { workers = 2 } }
}
variant "normal" {}
workload "w" {
  scenario = "s.scenario"
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = "a:b"
    key  = "k"
  }
}
host "h3" {
  address = "127.0.0.3"
  roles   = ["container"]
  disks "d" { names = ["c1"] }
}
service "container-server" {
  role = "container"
}
ring "container" {
  part_power = 8
  disks      = "d"
  port       = 6201
}
host "h4" {
  address = "127.0.0.4"
  roles   = ["object", "container"]
  disks "d" { names = ["x1", "x2"] }
}
variant "spp" {
  ring "object" { port_per_disk = true }
}
