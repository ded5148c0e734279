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
variant "unused" {
  set "object-server" { DEFAULT = { workers = 1 } }
}
workload "w" {
  variants = ["normal"]
  scenario = "put1.scenario"
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = "a:b"
    key  = "k"
  }
}
