# The errors of values derived from a secret: validate must say what is
# wrong without the value (TestSecretsNeverPrinted).
testbed "leak-broken" {}

variable "pw" {
  type      = string
  default   = "Hunter2Planted"
  sensitive = true
}

host "h1" {
  address = "127.0.0.1"
  roles   = ["client", "web"]
}

service "web" {
  kind    = "generic"
  role    = "web"
  manager = lower(var.pw)
  command = "/bin/true"
  health  = "tcp://:${substr(var.pw, 1, 6)}"
  ports   = [parseint(upper(var.pw), 10)]
}

variant "normal" {
  before = [tonumber("${var.pw}x")]
}

workload "w" {
  command = "true"
  parser  = "wget"
}
