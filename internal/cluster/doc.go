// Package cluster acts on a testbed's hosts through remote: disks and
// mounts, swift.conf and the confs, service managers, Swift and
// generic services, health checks and the environment capture (the rings:
// internal/cluster/rings).
// internal/setup, its first user, turns bare hosts into a healthy cluster
// of the first variant; the sweep's cells and the restore act on the hosts
// with the same pieces.
package cluster
