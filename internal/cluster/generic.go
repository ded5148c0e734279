package cluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
)

// Run and log directories of directly started generic daemons: one per
// host below them, since lab hosts may share these directories.
const (
	genericRunDir = "/var/run/benchbed"
	genericLogDir = "/var/log/benchbed"
)

// genericConfMode is the mode of a generic service's conf: its daemon may
// run as any user. A conf that holds a secret is genericSecretMode.
const (
	genericConfMode   = 0o644
	genericSecretMode = 0o600
)

// genericConfFile is how conf c is written: root's, 0644, or 0600 when it
// holds a secret (render.GenericConf.Secret).
func genericConfFile(c *render.GenericConf) remote.File {
	mode := fs.FileMode(genericConfMode)
	if c.Secret {
		mode = genericSecretMode
	}
	return remote.File{Path: c.Path, Content: c.Content, Mode: mode, Owner: "root", Group: "root"}
}

// genericDaemon returns generic service g's daemon on host in variant v
// (nil: as declared): under systemd its unit; started directly, its
// command with the service's and the variant's flags, run by /bin/sh.
func genericDaemon(g *plan.Generic, v *plan.Variant, host string) Daemon {
	d := Daemon{Name: g.Name, Manager: g.Manager, Unit: g.Unit, Restart: g.Restart, Ports: g.Ports,
		RunDir: path.Join(genericRunDir, host), LogDir: path.Join(genericLogDir, host)}
	if g.Manager == plan.ManagerDirect {
		d.Argv = []string{"/bin/sh", "-c", GenericCommandLine(g, v)}
	}
	return d
}

// GenericCommandLine is g's foreground command in variant v: its command,
// then each flag quoted for the shell.
func GenericCommandLine(g *plan.Generic, v *plan.Variant) string {
	parts := []string{g.Command}
	for _, f := range g.FlagsIn(v) {
		parts = append(parts, remote.Quote(f))
	}
	return strings.Join(parts, " ")
}

// HostGenerics returns the generic services host h runs.
func HostGenerics(tb *plan.Testbed, h *plan.Host) []*plan.Generic {
	return withHostRole(h, tb.Generics, func(g *plan.Generic) string { return g.Role })
}

// GenericHosts returns the hosts that run a generic service.
func GenericHosts(tb *plan.Testbed) []*plan.Host { return hostsRunning(tb, HostGenerics) }

// PushGenericConfs places host's generic confs of a rendering and returns
// the services whose conf changed.
func PushGenericConfs(ctx context.Context, p *remote.Pool, confs []*render.GenericConf, host string, rep *Report) (map[string]bool, error) {
	changed := map[string]bool{}
	for _, c := range confs {
		if c.Host.Name != host {
			continue
		}
		if _, err := p.Run(ctx, host, "mkdir -p "+remote.Quote(path.Dir(c.Path))); err != nil {
			return changed, err
		}
		ch, err := p.Upload(ctx, host, genericConfFile(c))
		if err != nil {
			return changed, fmt.Errorf("%s: %s: %w", host, c.Path, err)
		}
		if ch == remote.Written {
			changed[c.Service.Name] = true
			rep.Change(host, "wrote %s", c.Path)
		}
	}
	return changed, nil
}

// StartGenericService starts daemon d of service g on host when it is not
// running, or restarts it when restart is true, then runs the variant's
// after_start commands; it reports whether the daemon was running before.
func StartGenericService(ctx context.Context, p *remote.Pool, host string, g *plan.Generic, v *plan.Variant, restart bool, rep *Report) (bool, error) {
	d := genericDaemon(g, v, host)
	running, err := daemonRunning(ctx, p, host, d)
	if err != nil {
		return false, err
	}
	switch {
	case !running:
		if _, err := p.Run(ctx, host, d.StartScript()); err != nil {
			return running, withJournal(ctx, p, host, d, ScriptFailed(host, "starting "+d.Name, err))
		}
		rep.Change(host, "started %s (%s)", d.Name, d.Manager)
	case restart:
		if _, err := p.Run(ctx, host, d.RestartScript()); err != nil {
			return running, withJournal(ctx, p, host, d, ScriptFailed(host, "restarting "+d.Name, err))
		}
		rep.Change(host, "restarted %s (%s)", d.Name, d.Manager)
	default:
		return running, nil
	}
	for _, cmd := range g.AfterStartIn(v) {
		if _, err := p.Run(ctx, host, cmd); err != nil {
			return running, ScriptFailed(host, "after_start of "+g.Name, err)
		}
		rep.Change(host, "ran %s", cmd)
	}
	return running, nil
}

// stopGeneric stops g's daemon on host: systemctl stop, or the direct
// daemon's stop script.
func stopGeneric(ctx context.Context, p *remote.Pool, host string, g *plan.Generic) error {
	d := genericDaemon(g, nil, host)
	script := d.StopScript()
	if d.Manager == plan.ManagerSystemd {
		script = "systemctl stop " + remote.Quote(d.Unit)
	}
	if _, err := p.Run(ctx, host, script); err != nil {
		return ScriptFailed(host, "stopping "+g.Name, err)
	}
	return nil
}

// daemonRunning runs d's status script: a non-zero exit is "not running",
// any other failure an error.
func daemonRunning(ctx context.Context, p *remote.Pool, host string, d Daemon) (bool, error) {
	_, err := p.Run(ctx, host, d.StatusScript())
	var exit *remote.ExitError
	if err != nil && !errors.As(err, &exit) {
		return false, err
	}
	return err == nil, nil
}
