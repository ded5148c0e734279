// Package remote is how benchbed touches a lab: SSH commands and SFTP file
// transfers over one reused connection per host, checked against known_hosts.
//
// A Pool is built from plain per-host Config values (the caller maps its
// testbed onto them; set fields win over ~/.ssh/config) and dials lazily,
// with connect and handshake timeouts, retries of the dial only, jump hosts
// and keepalives:
//
//	p, err := remote.NewPool(cfgs, remote.Output(os.Stderr, mask), remote.Parallelism(32))
//	defer p.Close()
//	rep := remote.Preflight(ctx, p, []string{"swift-init"}) // rep.Render(w), rep.Err()
//	res, err := p.Run(ctx, "stor1", "systemctl restart swift-object") // *ExitError when non-zero
//	ch, err := p.Upload(ctx, "stor1", remote.File{Path: "/etc/swift/object-server.conf", Content: b})
//	chs, err := p.UploadAll(ctx, "stor1", files)     // one host's files at once
//	n, err := p.Download(ctx, "stor1", "/var/log/swift/all.log", "run/stor1.log")
//	bin, err := p.UploadBinary(ctx, "client1", exe, "") // content-addressed, sent once
//	s, err := p.Start(ctx, "client1", bin+" agent")     // stdin/stdout pipes
//	sum := p.FanOut(ctx, p.Hosts(), func(ctx context.Context, host string) error { ... })
//
// Run executes commands under /bin/sh in their own session on the host;
// cancelling the context kills that session's whole process group (TERM,
// then KILL), so nothing the command started stays behind, even when
// benchbed itself dies (the channel closing is the signal). Unknown or
// changed host keys are a *HostKeyError; AcceptNewHostKeys records unknown
// ones, never changed ones. Become runs commands and SFTP through sudo -n.
//
// Output's second argument filters each live line before it is printed
// (mask: the caller's masking of secrets, a filter per stream); a command
// run with Quiet(ctx) is captured but not streamed.
package remote
