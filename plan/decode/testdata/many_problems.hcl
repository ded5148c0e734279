testbed "many" {}
host "h1" {
  address = "127.0.0.1"
  roles   = ["object", "proxy"]
  disks "d" { names = ["d1"] }
}
ring "object" {
  part_power = 8
  disks      = "ssd"
}
service "object-server" {
  role    = "object"
  manager = "init"
}
variant "normal" {
  set "proxy-server" { DEFAULT = { workers = 1 } }
}
workload "w" {
  scenario = "broken/nope.scenario"
  clients  = ["h1"]
  storage_url = "http://127.0.0.1:8080/v1/AUTH_a"
  token       = "tok1"
}
