// Package distro holds benchbed's end-to-end test on the distro lab
// (testbeds/distro: booted Debian 12 hosts in systemd-nspawn, Swift installed
// by setup from the lab's mirror, systemd units, XFS on loop devices).
//
// The lab is brought up by the test (after taking down whatever distro lab
// was there) and taken down by Main at the end. The machine-wide distro lock
// (/run/lock/benchbed-distro.lock) is held for the whole binary, so two
// binaries never share the lab; the netns lab's lock is not taken, so both
// labs' tests may run at once.
package distro
