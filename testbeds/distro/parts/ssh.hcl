# How benchbed reaches the distro lab's hosts: the key, known_hosts and
# ssh_config that testbeds/distro/up writes into its state directory, and
# the lab's tempauth key. Both of its host shapes include it: the four
# containers (distro.hcl here) and the swift-init all in one
# (testbeds/distro/aio-swift-init.hcl).

variable "distro_dir" {
  type        = string
  default     = "/var/lib/benchbed-distro"
  description = "state directory of testbeds/distro/up (client key, known_hosts, ssh_config)"
}

variable "auth_key" {
  type        = string
  default     = "distro-bench-key"
  sensitive   = true
  description = "tempauth key of bench:bench (a lab-only key)"
}

ssh {
  user            = "root"
  config          = "${var.distro_dir}/client/ssh_config"
  identity_files  = ["${var.distro_dir}/client/id_ed25519"]
  known_hosts     = "${var.distro_dir}/client/known_hosts"
  parallelism     = 8
  connect_timeout = "5s"
}

