package setup

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/remote"
)

// defaultPackages are the packages of Swift's built-in services, per
// package manager: Debian's and Ubuntu's names, and RDO's.
var defaultPackages = map[string]map[string]string{
	cluster.PackagerApt: {
		"proxy-server": "swift-proxy", "object-server": "swift-object", "container-server": "swift-container",
		"account-server": "swift-account", "memcached": "memcached", "builder": "swift",
		"xfs": "xfsprogs", "ext4": "e2fsprogs",
	},
	cluster.PackagerDnf: {
		"proxy-server": "openstack-swift-proxy", "object-server": "openstack-swift-object",
		"container-server": "openstack-swift-container", "account-server": "openstack-swift-account",
		"memcached": "memcached", "builder": "openstack-swift", "xfs": "xfsprogs", "ext4": "e2fsprogs",
	},
}

// hostPackages returns what setup installs on host h, whose package manager
// is pm: the host's packages when the testbed gives them; else its
// services' (their own list, or their Swift server's package; a generic
// service's own list, none by default), memcached
// on a proxy host, the ring tools on the builder host, what the EC
// policies need on a proxy or object host (ecPackages), and mkfs for disks
// to format. Each package once, in that order.
func hostPackages(tb *plan.Testbed, h, builder *plan.Host, pm string) []string {
	if h.PackagesSet {
		return h.Packages
	}
	names := defaultPackages[pm]
	var out []string
	add := func(ps ...string) {
		for _, p := range ps {
			if p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	for _, s := range cluster.HostServices(tb, h) {
		if s.PackagesSet {
			add(s.Packages...)
		} else {
			add(names[s.Name])
		}
		if s.Role == "proxy" {
			add(names["memcached"])
		}
	}
	for _, g := range cluster.HostGenerics(tb, h) {
		add(g.Packages...)
	}
	if h == builder {
		add(names["builder"])
	}
	add(cluster.ECPackages(tb, h, pm)...)
	for _, g := range cluster.RingDisks(tb, h) {
		for _, d := range g.Disks {
			if d.Format && d.Device != "" {
				add(names[cmp.Or(d.Filesystem, "xfs")])
			}
		}
	}
	return out
}

// packagerScript prints the host's package manager from /etc/os-release.
const packagerScript = `[ -r /etc/os-release ] || { echo "no /etc/os-release: cannot tell apt from dnf" >&2; exit 2; }
. /etc/os-release
case " $ID $ID_LIKE " in
  *" debian "*|*" ubuntu "*) echo apt ;;
  *" fedora "*|*" rhel "*|*" centos "*) command -v dnf >/dev/null && echo dnf || { echo "$ID has no dnf" >&2; exit 2; } ;;
  *) echo "distribution $ID ($PRETTY_NAME): benchbed installs with apt or dnf only; install the packages yourself and set packages = [] on the host" >&2; exit 2 ;;
esac`

// packager returns host's package manager, cluster.PackagerApt or cluster.PackagerDnf.
func packager(ctx context.Context, p *remote.Pool, host string) (string, error) {
	res, err := p.Run(remote.Quiet(ctx), host, packagerScript)
	if err != nil {
		return "", cluster.ScriptFailed(host, "reading /etc/os-release", err)
	}
	return strings.TrimSpace(string(res.Stdout)), nil
}

// absentCode is the exit status of an install script when a package is in
// none of the host's repositories.
const absentCode = 3

// installPackages installs on host those of pkgs it lacks with pm and
// records what it installed; with nothing missing it changes nothing.
func installPackages(ctx context.Context, p *remote.Pool, host, pm string, pkgs []string, rep *cluster.Report) error {
	if len(pkgs) == 0 {
		return nil
	}
	res, err := p.Run(ctx, host, installScript(pm, pkgs))
	var ee *remote.ExitError
	if errors.As(err, &ee) && ee.Code == absentCode {
		return fmt.Errorf("%s: %s; nothing was installed", host, strings.TrimSpace(ee.StderrTail))
	}
	if err != nil {
		return cluster.ScriptFailed(host, "installing packages with "+pm, err)
	}
	if out := strings.TrimSpace(string(res.Stdout)); out != "" {
		rep.Change(host, "%s (%s)", out, pm)
	}
	return nil
}
