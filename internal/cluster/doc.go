// Package cluster acts on a testbed's hosts through remote: packages, disks
// and mounts, swift.conf and the confs, rings, service managers, Swift and
// generic services, health checks and the environment capture. Setup, its
// first user, turns bare hosts into a healthy cluster of the first variant;
// the sweep's cells and its restore act on the hosts with the same pieces.
//
// Setup is idempotent: every step first looks at what the hosts have
// (directories, swift.conf, ring builders and ring files, confs, running
// services) and changes only what differs, so a second run reports no
// change, and a testbed with one more disk is applied as a ring change (add
// the device, rebalance, distribute), never a rebuild.
package cluster
