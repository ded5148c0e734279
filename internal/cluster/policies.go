package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
)

// readSwiftConfScript prints the host's swift.conf, nothing when it has none.
const readSwiftConfScript = "[ ! -e " + render.SwiftConfPath + " ] || cat " + render.SwiftConfPath

// PolicyConflicts reads every service host's /etc/swift/swift.conf as it
// is and returns an error naming each storage policy of the host that the
// testbed would change the type of or drop (render.PolicyConflicts): data
// stored in it would become unreadable. A host without swift.conf has none.
// Setup (internal/setup) and the sweep run it before they change anything.
func PolicyConflicts(ctx context.Context, p Runner, tb *plan.Testbed) error {
	return checkSwiftConfs(ctx, p, tb, render.PolicyConflicts)
}

// checkSwiftConfs reads every service host's swift.conf and returns what
// check finds there (a sentence each), naming the host.
func checkSwiftConfs(ctx context.Context, p Runner, tb *plan.Testbed, check func(tb *plan.Testbed, name string, live []byte) ([]string, error)) error {
	return p.FanOut(ctx, Names(ServiceHosts(tb)), func(ctx context.Context, host string) error {
		res, err := p.Run(remote.Quiet(ctx), host, readSwiftConfScript)
		if err != nil {
			return fmt.Errorf("%s: reading %s: %w", host, render.SwiftConfPath, err)
		}
		out, err := check(tb, host+":"+render.SwiftConfPath, res.Stdout)
		if err != nil {
			return fmt.Errorf("%s: %w", host, err)
		}
		var errs []error
		for _, c := range out {
			errs = append(errs, errors.New(c))
		}
		return errors.Join(errs...)
	}).Err()
}

// ecProbe is one distinct EC driver and the policies that use it.
type ecProbe struct {
	Command  string
	Policies []string // "ec42 (liberasurecode_rs_vand 4+2)"
}

// ecProbes groups the testbed's EC policies by probe command.
func ecProbes(tb *plan.Testbed) []ecProbe {
	var out []ecProbe
	for _, pol := range tb.StoragePolicies() {
		c := plan.ECProbeCommand(pol)
		if c == "" {
			continue
		}
		name := fmt.Sprintf("%s (%s %d+%d)", pol.Name, pol.ECType, pol.ECData, pol.ECParity)
		i := slices.IndexFunc(out, func(p ecProbe) bool { return p.Command == c })
		if i < 0 {
			out = append(out, ecProbe{Command: c})
			i = len(out) - 1
		}
		out[i].Policies = append(out[i].Policies, name)
	}
	return out
}

// ECBackends runs every EC policy's probe (plan.ECProbeCommand) on every
// host that encodes or decodes (tb.ECHosts) and returns an error naming
// the host, the policy and PyECLib's words for each one that fails: Swift's
// proxy and object servers would refuse swift.conf there.
func ECBackends(ctx context.Context, p Runner, tb *plan.Testbed) error {
	probes := ecProbes(tb)
	if len(probes) == 0 {
		return nil
	}
	return p.FanOut(ctx, Names(tb.ECHosts()), func(ctx context.Context, host string) error {
		var errs []error
		for _, pr := range probes {
			res, err := p.Run(remote.Quiet(ctx), host, pr.Command)
			if err == nil {
				continue
			}
			var ee *remote.ExitError
			if !errors.As(err, &ee) {
				return fmt.Errorf("%s: erasure-coding probe: %w", host, err)
			}
			why := strings.TrimSpace(ee.StderrTail)
			if res != nil && why == "" {
				why = strings.TrimSpace(string(res.Stderr))
			}
			errs = append(errs, fmt.Errorf("%s: policy %s: PyECLib cannot build its driver with %s (exit %d): %s",
				host, strings.Join(pr.Policies, ", "), plan.SystemPython, ee.Code, lastLine(why)))
		}
		return errors.Join(errs...)
	}).Err()
}

// lastLine is the last line of s: a Python traceback's says why.
func lastLine(s string) string {
	return s[strings.LastIndex(s, "\n")+1:]
}

// Package managers setup installs with, chosen from a host's /etc/os-release.
const (
	PackagerApt = "apt" // Debian, Ubuntu and their derivatives
	PackagerDnf = "dnf" // Fedora, RHEL, CentOS Stream, Rocky, Alma
)

// ECPackages are the packages the testbed's EC policies need on host h
// (a proxy or object host, with apt; tb.ECPackageList), nil otherwise.
// RPM distributions' openstack-swift packages depend on PyECLib already.
func ECPackages(tb *plan.Testbed, h *plan.Host, pm string) []string {
	if pm != PackagerApt || !slices.Contains(tb.ECHosts(), h) {
		return nil
	}
	return tb.ECPackageList()
}

// CheckPolicies is PolicyConflicts, then ECBackends: the storage policies'
// part of a preflight, changing nothing.
func CheckPolicies(ctx context.Context, p Runner, tb *plan.Testbed) error {
	if err := PolicyConflicts(ctx, p, tb); err != nil {
		return err
	}
	return ECBackends(ctx, p, tb)
}
