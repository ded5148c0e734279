# Secrets placed in every form benchbed must keep out of what it prints
# (TestSecretsNeverPrinted): sensitive variables of every shape,
# values derived from them, secret-named keys in Swift and generic INI
# confs, elements of a sensitive map and list.
testbed "leak" {
  description = "the leak test"
}

variable "pw" {
  type      = string
  default   = "Hunter2Planted"
  sensitive = true
}

variable "creds" {
  type      = map(string)
  default   = { key = "MapElemPlanted" }
  sensitive = true
}

variable "list" {
  type      = list(string)
  default   = ["ListElemPlantedA", "ListElemPlantedB"]
  sensitive = true
}

variable "dollar" {
  type      = string
  default   = "Dollar$${Planted}Value"
  sensitive = true
}

variable "escaped" {
  type      = string
  default   = "Caf\u00e9EscPlanted"
  sensitive = true
}

variable "heredoc" {
  type      = string
  sensitive = true
  default   = <<-EOT
    HeredocPlantedLine
  EOT
}

locals {
  shout = upper(var.pw)
}

host "h1" {
  address = "127.0.0.1"
  roles   = ["proxy", "object", "client", "web"]
  disks "d" { names = ["d1", "d2"] }
}

ring "object" {
  part_power = 8
  replicas   = 2
  disks      = "d"
}

service "proxy-server" {
  role = "proxy"
  settings = {
    "filter:tempauth" = { user_admin_admin = "AdminKeyPlanted .admin", user_bench_bench = "${var.pw} .admin" }
  }
}

service "object-server" {
  role = "object"
  settings = {
    DEFAULT = {
      a           = local.shout
      b           = lower(var.pw)
      c           = substr(var.pw, 0, 8)
      d           = "${var.pw}s"
      e           = var.creds.key
      f           = var.list[1]
      g           = var.dollar
      h           = var.escaped
      i           = trimspace(var.heredoc)
      db_password = "PlainDbPlanted"
    }
  }
  # keys the object server does not read, holding the secrets above
  unchecked = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "db_password"]
}

service "web" {
  kind     = "generic"
  role     = "web"
  path     = "/etc/web/web.ini"
  format   = "ini"
  command  = "/bin/true"
  health   = "tcp://:8081"
  content  = "[main]\nuser = bench\npassword = x\nnote = ${format("n-%s", var.creds.key)}\n"
  settings = { main = { password = "GenericIniPlanted" } }
}

service "page" {
  kind     = "generic"
  role     = "web"
  path     = "/etc/web/page.conf"
  command  = "/bin/true"
  health   = "tcp://:8082"
  content  = "token {{ .Settings.main.token }};\nword ${lower(var.pw)};\n"
  settings = { main = { token = "PageTokenPlanted" } }
}

variant "normal" {
  description = "normal ${substr(var.pw, 2, 9)}"
}

variant "other" {
  description = "other ${var.list[0]}"
  before      = ["echo ${local.shout}"]
  set "object-server" {
    DEFAULT = { db_password = "OtherDbPlanted", a = "x", e = "${var.creds.key}-2" }
  }
  set "proxy-server" {
    settings = { "filter:tempauth" = { user_admin_admin = "OtherAdminPlanted .admin" } }
  }
  set "web" {
    main = { password = "OtherIniPlanted" }
  }
  set "page" {
    main = { token = "OtherTokenPlanted" }
  }
}

workload "w" {
  scenario = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = "admin:admin"
    key  = "AuthKeyPlanted"
  }
}
