// Package remote is how benchbed touches a lab: SSH commands and SFTP file
// transfers over one reused connection per host, checked against known_hosts.
//
// A Pool is built from plain per-host Config values (the caller maps its
// testbed onto them) and dials lazily:
//
//	p, err := remote.NewPool(cfgs, remote.Output(os.Stderr), remote.Parallelism(32))
//	defer p.Close()
//	res, err := p.Run(ctx, "stor1", "systemctl restart swift-object")
//	ch, err := p.Upload(ctx, "stor1", remote.File{Path: "/etc/swift/object-server.conf", Content: b, Backup: true})
//	sum := p.FanOut(ctx, p.Hosts(), func(ctx context.Context, host string) error { ... })
//	rep := remote.Preflight(ctx, p, []string{"swift-init"})
//
// Commands run under /bin/sh in their own session on the host; cancelling
// the context kills that session's whole process group, so nothing the
// command started stays behind. A non-zero exit is an *ExitError. Unknown or
// changed host keys are a *HostKeyError.
package remote
