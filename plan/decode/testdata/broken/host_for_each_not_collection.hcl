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
host "c" {
  for_each = "127.0.0.2"
  address  = each.value
  roles    = ["object"]
  disks "d" { names = ["d1"] }
}
