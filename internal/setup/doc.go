// Package setup is `benchbed setup`, the cluster's first user: it installs
// the hosts' packages and turns bare hosts into a healthy cluster of the
// first variant (disks, swift.conf, rings, confs, services, a smoke test).
//
// Run is idempotent: every step first looks at what the hosts have
// (directories, swift.conf, ring builders and ring files, confs, running
// services) and changes only what differs, so a second run reports no
// change, and a testbed with one more disk is applied as a ring change (add
// the device, rebalance, distribute), never a rebuild.
package setup
