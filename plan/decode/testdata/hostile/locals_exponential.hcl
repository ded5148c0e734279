locals {
  a0 = "x"
  a1 = [local.a0, local.a0]
  a2 = [local.a1, local.a1]
  a3 = [local.a2, local.a2]
  a4 = [local.a3, local.a3]
  a5 = [local.a4, local.a4]
  a6 = [local.a5, local.a5]
  a7 = [local.a6, local.a6]
  a8 = [local.a7, local.a7]
  a9 = [local.a8, local.a8]
  a10 = [local.a9, local.a9]
  a11 = [local.a10, local.a10]
  a12 = [local.a11, local.a11]
  a13 = [local.a12, local.a12]
  a14 = [local.a13, local.a13]
  a15 = [local.a14, local.a14]
  a16 = [local.a15, local.a15]
  a17 = [local.a16, local.a16]
  a18 = [local.a17, local.a17]
  a19 = [local.a18, local.a18]
  a20 = [local.a19, local.a19]
  a21 = [local.a20, local.a20]
  a22 = [local.a21, local.a21]
  a23 = [local.a22, local.a22]
  a24 = [local.a23, local.a23]
  a25 = [local.a24, local.a24]
  a26 = [local.a25, local.a25]
  a27 = [local.a26, local.a26]
  a28 = [local.a27, local.a27]
  a29 = [local.a28, local.a28]
  a30 = [local.a29, local.a29]
  a31 = [local.a30, local.a30]
  a32 = [local.a31, local.a31]
  a33 = [local.a32, local.a32]
  a34 = [local.a33, local.a33]
  a35 = [local.a34, local.a34]
  a36 = [local.a35, local.a35]
  a37 = [local.a36, local.a36]
  a38 = [local.a37, local.a37]
  a39 = [local.a38, local.a38]
}
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
  path     = "/etc/swift/object-server.conf"
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
