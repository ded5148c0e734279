# Seed 004 at lab scale: a client option measured with and without, by
# wget, curl and iperf3, as MB/s per variant. The seed read a 500 MB ISO
# from Apache over AFS; here nginx on proxy1 serves a file of file_mb MB
# from proxy1's private /srv, and the variants are what one can change and
# measure on one machine: the page cache warm or dropped before each run
# (the seed's warm vs cold cache), and nginx's sendfile on or off (standing
# in for the seed's cache bypass: the same bytes by another path). iperf3
# runs as a second generic service, the network's own figure.
#
#   testbeds/lab/up && benchbed sweep testbeds/lab/seed004-lab.hcl
#
# Nothing of Swift runs here: proxy1 and client1 are the lab's namespaces,
# with generic services only. Dropping the page cache is the kernel's, so
# a cold run empties the cache of the whole machine the lab runs on.

testbed "seed004-lab" {
  description = "wget, curl and iperf3 from client1 to nginx and iperf3 -s on proxy1: warm vs cold cache, sendfile on/off"
}

include "parts/ssh.hcl" {}

variable "file_mb" {
  type        = number
  default     = 500
  description = "size of the file nginx serves, in MiB (the seed's ISO was 500 MB)"
}

variable "iperf_seconds" {
  type        = number
  default     = 5
  description = "how long each iperf3 run sends"
}

locals {
  web  = "198.18.0.11"
  url  = "http://${local.web}:8004/big.bin"
  file = "/srv/www/big.bin"
}

host "proxy1" {
  address = local.web
  roles   = ["web"]
  hardware {
    kind = "network namespace on the local machine"
  }
}

host "client1" {
  address = "198.18.0.31"
  roles   = ["client"]
  hardware {
    kind = "network namespace on the local machine"
  }
}

# nginx, started directly (not Debian's unit: the lab's hosts share the
# machine's /etc and systemd), its conf in proxy1's private /srv. Its
# after_start makes the file once (and again when file_mb changes) and the
# small page the health check reads.
service "nginx" {
  kind     = "generic"
  role     = "web"
  path     = "/srv/nginx/nginx.conf"
  command  = "/usr/sbin/nginx -c /srv/nginx/nginx.conf"
  flags    = ["-e", "/srv/nginx/error.log", "-g", "daemon off;"]
  ports    = [8004]
  health   = "http://:8004/health.txt"
  settings = { http = { sendfile = "on" } }
  after_start = [
    "mkdir -p /srv/www && echo ok > /srv/www/health.txt",
    "[ \"$(stat -c %s ${local.file} 2>/dev/null)\" = ${var.file_mb * 1048576} ] || head -c ${var.file_mb}M /dev/urandom > ${local.file}",
  ]
  content = <<-EOT
    # nginx of benchbed's seed004-lab on {{ .Host.Name }}
    worker_processes 1;
    pid /srv/nginx/nginx.pid;
    error_log /srv/nginx/error.log;
    events { worker_connections 256; }
    http {
      access_log off;
      sendfile {{ .Settings.http.sendfile }};
      client_body_temp_path /srv/nginx/body;
      proxy_temp_path /srv/nginx/proxy;
      fastcgi_temp_path /srv/nginx/fastcgi;
      uwsgi_temp_path /srv/nginx/uwsgi;
      scgi_temp_path /srv/nginx/scgi;
      server {
        listen {{ .Host.Address }}:8004;
        root /srv/www;
      }
    }
  EOT
}

# iperf3's server: no conf, one client at a time (its workload has one user).
service "iperf3" {
  kind    = "generic"
  role    = "web"
  command = "/usr/bin/iperf3 -s -p 5201"
  ports   = [5201]
  health  = "tcp://:5201"
}

# The seed's rows: warm cache, cold cache; and sendfile off for each.
variant "warm" {
  description = "sendfile on, warm cache"
  before      = ["cat ${local.file} > /dev/null"]
  before_on   = ["proxy1"]
}

variant "cold" {
  description = "sendfile on, cold cache"
  before      = ["sync; echo 3 > /proc/sys/vm/drop_caches"]
  before_on   = ["proxy1"]
}

variant "warm-nosendfile" {
  description = "sendfile off, warm cache"
  before      = ["cat ${local.file} > /dev/null"]
  before_on   = ["proxy1"]
  set "nginx" { http = { sendfile = "off" } }
}

variant "cold-nosendfile" {
  description = "sendfile off, cold cache"
  before      = ["sync; echo 3 > /proc/sys/vm/drop_caches"]
  before_on   = ["proxy1"]
  set "nginx" { http = { sendfile = "off" } }
}

# wget's rate line needs its default verbosity; dot:giga keeps the
# progress short.
workload "wget" {
  command = "wget -O /dev/null --progress=dot:giga ${local.url}"
  parser  = "wget"
  clients = ["client1"]
}

# HCL reads %{ as a template directive: %%{ is curl's %{.
workload "curl" {
  command = "curl -sS -o /dev/null -w '%%{size_download} %%{time_total} %%{speed_download} %%{time_starttransfer}\\n' ${local.url}"
  parser  = "curl"
  clients = ["client1"]
}

workload "iperf3" {
  command = "iperf3 -c ${local.web} -p 5201 -t ${var.iperf_seconds} --json"
  parser  = "iperf3"
  clients = ["client1"]
}

sweep {
  repeat     = 3
  on_failure = "continue"
  restore    = true
}
