# The local lab's three rings on its disks "object" and "meta", each
# partition local.replicas times (the including lab says how many: 2 on
# the namespaces' two storage hosts, 1 on the one host), with one port a
# disk from port_base when a variant asks for it.
#
# min_part_hours = 0: in the lab a changed testbed (one more disk) moves
# partitions at once; a real cluster keeps 1 hour or more.

ring "object" {
  part_power     = 8
  replicas       = local.replicas
  min_part_hours = 0
  disks          = "object"
  port           = 6200
  port_base      = 6210
}

ring "container" {
  part_power     = 8
  replicas       = local.replicas
  min_part_hours = 0
  disks          = "meta"
  port           = 6201
  port_base      = 6220
}

ring "account" {
  part_power     = 8
  replicas       = local.replicas
  min_part_hours = 0
  disks          = "meta"
  port           = 6202
  port_base      = 6230
}
