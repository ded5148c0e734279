# How benchbed reaches the local lab's hosts: the key, known_hosts and
# ssh_config that testbeds/lab/up writes into its state directory. Every
# testbed of testbeds/lab includes it: through netns.hcl or aio.hcl, or
# on its own (seed004-lab.hcl).

variable "lab_dir" {
  type        = string
  default     = "/var/lib/benchbed-lab"
  description = "state directory of testbeds/lab/up (client key, known_hosts, ssh_config)"
}

ssh {
  user            = "root"
  config          = "${var.lab_dir}/client/ssh_config"
  identity_files  = ["${var.lab_dir}/client/id_ed25519"]
  known_hosts     = "${var.lab_dir}/client/known_hosts"
  parallelism     = 8
  connect_timeout = "5s"
}
