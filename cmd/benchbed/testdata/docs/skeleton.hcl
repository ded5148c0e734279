# The skeleton the docs' HCL fragments are completed with (TestDocsSnippets):
# a minimal valid testbed. A fragment's top-level blocks are added to it, and
# each skeleton block the fragment declares too (the same type and labels;
# sweep, telemetry, testbed and ssh by type) is left out. Every scenario
# file a snippet names is provided (testbeds/ has most; others are a 64 KiB
# GET scenario).

testbed "docs" {}

variable "auth_key" {
  type      = string
  default   = "docs-key"
  sensitive = true
}

variable "token" {
  type      = string
  default   = "docs-token"
  sensitive = true
}

host "proxy1" {
  address = "10.0.0.1"
  roles   = ["proxy", "client"]
}

host "stor1" {
  address = "10.0.0.11"
  roles   = ["object", "container", "account"]
  disks "object" {
    names   = ["d0", "d1", "d2", "d3", "d4", "d5"]
    devices = ["/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde", "/dev/vdf", "/dev/vdg"]
  }
  disks "meta" { names = ["m0"] }
}

host "stor2" {
  address = "10.0.0.12"
  roles   = ["object", "container", "account"]
  disks "object" {
    names   = ["d0", "d1", "d2", "d3", "d4", "d5"]
    devices = ["/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde", "/dev/vdf", "/dev/vdg"]
  }
  disks "meta" { names = ["m0"] }
}

ring "object" {
  part_power = 10
  replicas   = 2
  disks      = "object"
  port_base  = 6210 # one port per disk (servers_per_port) clear of 6201 and 6202
}

ring "object-1" {
  part_power = 10
  replicas   = 6
  disks      = "object"
}

ring "object-2" {
  part_power = 10
  replicas   = 10
  disks      = "object"
}

ring "container" {
  part_power = 8
  replicas   = 2
  disks      = "meta"
}

ring "account" {
  part_power = 8
  replicas   = 2
  disks      = "meta"
}

policy "rep3" {
  index   = 0
  default = true
}

policy "ec42" {
  index                   = 1
  type                    = "erasure_coding"
  ec_type                 = "liberasurecode_rs_vand"
  ec_num_data_fragments   = 4
  ec_num_parity_fragments = 2
}

policy "ec82" {
  index                   = 2
  type                    = "erasure_coding"
  ec_type                 = "liberasurecode_rs_vand"
  ec_num_data_fragments   = 8
  ec_num_parity_fragments = 2
}

service "proxy-server" { role = "proxy" }
service "object-server" { role = "object" }
service "container-server" { role = "container" }
service "account-server" { role = "account" }

variant "normal" {}

workload "w" {
  scenario = "64K_get_lab.scenario"
  duration = "1m"
  auth {
    url  = "http://10.0.0.1:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}
