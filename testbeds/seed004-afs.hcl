# Seed 004 as it was run: the OpenAFS cache manager (afsd) on two web
# servers, Apache serving a 500 MB ISO out of AFS, read with wget and curl,
# the network measured with iperf, the cache with iozone. The seed compared
# client options: afsd's -daemons (6 on 1.4.12.1, 12 on 1.5.77), the cache
# warm or cold, and cache bypass (a low `fs bypassthreshold`, which the
# seed's chat calls "fs bypasthreshold"); its figures were MB/s per row:
#
#   web-1 1.4.12.1 -daemons 6:  wget 2.03 MB/s, iperf ~80 Mb/s
#   web-2 1.5.77 -daemons 12:   wget 14.0 MB/s (cold cache 3.11), iperf > 400 Mb/s
#   web-2 1.6.0pre2:            wget cold 5.53 MB/s, curl warm 32 MB/s, curl bypass 35 MB/s
#
# The hosts are the seed's (CentOS 5.5 VMs under ESXi); the addresses and
# the URL are placeholders to set with -var. The AFS file server (1.4.11 on
# Solaris) is not benchbed's to manage.
#
#   benchbed validate testbeds/seed004-afs.hcl
#   benchbed sweep testbeds/seed004-afs.hcl --var web1=... --var web2=... --var client=...

testbed "seed004-afs" {
  description = "AFS cache manager options (daemons, cache bypass, warm/cold cache) measured with wget, curl, iperf3 and iozone"
}

variable "web1" {
  type        = string
  default     = "192.0.2.11"
  description = "web-1's address (1.4.12.1, -daemons 6)"
}

variable "web2" {
  type        = string
  default     = "192.0.2.12"
  description = "web-2's address (1.5.77, -daemons 12 -rxpck 2048)"
}

variable "client" {
  type        = string
  default     = "192.0.2.31"
  description = "the host wget, curl and iperf3 run on"
}

variable "iso_path" {
  type        = string
  default     = "/~phalenor/test.iso"
  description = "the 500 MB file's path on the web servers (a public_html in AFS)"
}

variable "afs_dir" {
  type        = string
  default     = "/afs/bx.psu.edu/user/phalenor/afs_performance"
  description = "an AFS directory iozone may write its file in"
}

ssh {
  user        = "root"
  parallelism = 4
}

host "web-1" {
  address = var.web1
  roles   = ["afs", "web", "client"]
  hardware {
    cpu    = "4 vCPUs (VMware ESXi)"
    nic    = "pcnet32, then vmxnet"
    cache  = "1GB disk cache on 2GFC"
    system = "CentOS 5.5 32-bit, OpenAFS 1.4.12.1"
  }
}

host "web-2" {
  address = var.web2
  roles   = ["afs", "web", "client"]
  hardware {
    cpu    = "4 vCPUs (VMware ESXi)"
    nic    = "vmxnet"
    cache  = "1GB disk cache on 2GFC"
    system = "CentOS 5.5 32-bit, OpenAFS 1.5.77"
  }
}

host "client1" {
  address = var.client
  roles   = ["client"]
}

# afsd's options live in the client's sysconfig; systemd (or the init
# script) restarts it. The seed's options, the daemons set per variant.
service "afsd" {
  kind    = "generic"
  role    = "afs"
  path    = "/etc/sysconfig/openafs"
  manager = "systemd"
  unit    = "openafs-client"
  health  = "fs checkservers -fast"
  settings = {
    afsd = { stat = 9600, daemons = 6, volumes = 512, chunksize = 19, extra = "" }
  }
  content = <<-EOT
    # OpenAFS client options for {{ .Host.Name }}, written by benchbed
    AFS_CLIENT=on
    AFS_POST_INIT=
    AFSD_ARGS="-stat {{ .Settings.afsd.stat }} -daemons {{ .Settings.afsd.daemons }} -volumes {{ .Settings.afsd.volumes }} -chunksize {{ .Settings.afsd.chunksize }} {{ .Settings.afsd.extra }}"
  EOT
}

service "httpd" {
  kind    = "generic"
  role    = "web"
  manager = "systemd"
  unit    = "httpd"
  health  = "http://:80/"
}

service "iperf3" {
  kind    = "generic"
  role    = "web"
  command = "/usr/bin/iperf3 -s -p 5201"
  ports   = [5201]
  health  = "tcp://:5201"
}

# The seed's rows. A cold run flushes the AFS cache and the page cache on
# the web servers first; a warm one reads the file once.
variant "daemons6" {
  description = "-daemons 6, warm cache"
  before      = ["wget -q -O /dev/null http://127.0.0.1${var.iso_path}"]
  before_on   = ["web-1", "web-2"]
}

variant "daemons12" {
  description = "-daemons 12 -rxpck 2048, warm cache"
  before      = ["wget -q -O /dev/null http://127.0.0.1${var.iso_path}"]
  before_on   = ["web-1", "web-2"]
  set "afsd" { afsd = { daemons = 12, extra = "-rxpck 2048" } }
}

variant "daemons12-cold" {
  description = "-daemons 12 -rxpck 2048, cold cache"
  before      = ["fs flushall && sync && echo 3 > /proc/sys/vm/drop_caches"]
  before_on   = ["web-1", "web-2"]
  set "afsd" { afsd = { daemons = 12, extra = "-rxpck 2048" } }
}

variant "bypass" {
  description = "-daemons 12 -rxpck 2048, cache bypass (threshold 1 byte)"
  set "afsd" { afsd = { daemons = 12, extra = "-rxpck 2048" } }
  service "afsd" {
    after_start = ["fs bypassthreshold -size 1"]
  }
}

workload "wget" {
  for_each = { web-1 = var.web1, web-2 = var.web2 }
  name     = "wget-${each.key}"
  command  = "wget -O /dev/null --progress=dot:giga http://${each.value}${var.iso_path}"
  parser   = "wget"
  clients  = ["client1"]
}

# HCL reads %{ as a template directive: %%{ is curl's %{.
workload "curl" {
  for_each = { web-1 = var.web1, web-2 = var.web2 }
  name     = "curl-${each.key}"
  command  = "curl -sS -o /dev/null -w '%%{size_download} %%{time_total} %%{speed_download} %%{time_starttransfer}\\n' http://${each.value}${var.iso_path}"
  parser   = "curl"
  clients  = ["client1"]
}

workload "iperf3" {
  for_each = { web-1 = var.web1, web-2 = var.web2 }
  name     = "iperf3-${each.key}"
  command  = "iperf3 -c ${each.value} -p 5201 -t 10 --json"
  parser   = "iperf3"
  clients  = ["client1"]
}

# iozone on each AFS client, in AFS: write and read a 512 MB file of 1 MB
# records (its own file per host and copy).
workload "iozone" {
  command = "iozone -i 0 -i 1 -s 512m -r 1m -f ${var.afs_dir}/iozone.$(hostname).$BENCHBED_COPY"
  parser  = "iozone"
  clients = ["web-1", "web-2"]
  users   = 2
  timeout = "30m"
}

sweep {
  repeat     = 3
  on_failure = "continue"
  restore    = true
}
