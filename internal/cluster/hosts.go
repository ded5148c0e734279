package cluster

import (
	"context"
	"fmt"
	"io"

	"benchbed/plan"
	"benchbed/remote"
)

// PoolConfigs maps the testbed's hosts and ssh block onto remote's
// per-host configs: the testbed's values first, then its ssh_config file.
func PoolConfigs(tb *plan.Testbed) []remote.Config {
	var cfgs []remote.Config
	for _, h := range tb.Hosts {
		c := remote.Config{
			Name: h.Name, Address: h.Address, Port: h.Port, User: h.User,
			IdentityFiles: tb.SSH.IdentityFiles, KnownHosts: tb.SSH.KnownHosts,
			ProxyJump: tb.SSH.ProxyJump, Become: tb.SSH.Become,
			ConnectTimeout: tb.SSH.ConnectTimeout, SSHConfigFile: tb.SSH.Config,
			AcceptNewHostKeys: tb.SSH.AcceptNewHostKeys,
		}
		if c.Port == 0 {
			c.Port = tb.SSH.Port
		}
		if c.User == "" {
			c.User = tb.SSH.User
		}
		cfgs = append(cfgs, c)
	}
	return cfgs
}

// NewPool opens (lazily) a remote pool on every host of tb.
func NewPool(tb *plan.Testbed, opts ...remote.Option) (*remote.Pool, error) {
	opts = append([]remote.Option{remote.Parallelism(tb.SSH.Parallelism)}, opts...)
	p, err := remote.NewPool(PoolConfigs(tb), opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tb.File, err)
	}
	return p, nil
}

// LiveOutput is the pool option that streams every host command's output
// to w (remote.Output), each line masked first (liveMask): what benchbed
// setup shows without -q.
func LiveOutput(tb *plan.Testbed, w io.Writer) remote.Option {
	return remote.Output(w, liveMask(tb))
}

// liveMask gives each stream of each command a secrets.Lines of tb's
// secrets: the testbed's secret values, the values of keys that name a
// secret (in the section the stream's last "[section]" line named) and
// tokens are masked.
func liveMask(tb *plan.Testbed) func() func(string) string {
	set := tb.Secrets()
	return func() func(string) string { return set.Lines().Line }
}

// ServiceHosts returns the hosts that run at least one service, in
// declaration order: they get swift.conf, the rings and their daemons.
func ServiceHosts(tb *plan.Testbed) []*plan.Host { return hostsRunning(tb, HostServices) }

// HostServices returns the services host h runs, in declaration order.
func HostServices(tb *plan.Testbed, h *plan.Host) []*plan.Service {
	return withHostRole(h, tb.Services, func(s *plan.Service) string { return s.Role })
}

// hostsRunning returns tb's hosts that run anything of what runs lists
// (HostServices, HostGenerics), in declaration order.
func hostsRunning[T any](tb *plan.Testbed, runs func(*plan.Testbed, *plan.Host) []T) []*plan.Host {
	var out []*plan.Host
	for _, h := range tb.Hosts {
		if len(runs(tb, h)) > 0 {
			out = append(out, h)
		}
	}
	return out
}

// withHostRole returns the elements of all whose role host h has, in order.
func withHostRole[T any](h *plan.Host, all []T, role func(T) string) []T {
	var out []T
	for _, x := range all {
		if h.HasRole(role(x)) {
			out = append(out, x)
		}
	}
	return out
}

// Names are the names of hs, in order.
func Names(hs []*plan.Host) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Name
	}
	return out
}

// Runner runs a shell command on a host, and a function on many hosts
// through remote's fan-out; *remote.Pool is one.
type Runner interface {
	Run(ctx context.Context, host, cmd string) (*remote.Result, error)
	FanOut(ctx context.Context, hosts []string, fn func(ctx context.Context, host string) error) *remote.Outcomes
}

var _ Runner = (*remote.Pool)(nil)

// SwiftDir is where Swift's confs, rings and builders live on a host.
const SwiftDir = "/etc/swift"
