package remote

import (
	"context"
	"errors"
	"fmt"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// sftpServerCmd starts OpenSSH's sftp-server as root, for Become hosts: the
// SFTP protocol then runs with root's rights over a plain exec session.
const sftpServerCmd = `sudo -n -- /bin/sh -c 'for p in /usr/lib/openssh/sftp-server /usr/libexec/openssh/sftp-server ` +
	`/usr/lib/ssh/sftp-server /usr/libexec/sftp-server; do [ -x "$p" ] && exec "$p"; done; ` +
	`echo "benchbed: no sftp-server found" >&2; exit 127'`

// sftpClient returns the host's SFTP client, opening it on first use. It
// holds one session slot for as long as it lives.
func (p *Pool) sftpClient(ctx context.Context, host string) (*sftp.Client, *hostConn, error) {
	hc, err := p.conn(ctx, host)
	if err != nil {
		return nil, nil, err
	}
	hc.mu.Lock()
	c := hc.sftp
	hc.mu.Unlock()
	if c != nil {
		return c, hc, nil
	}
	release, err := hc.acquire(ctx) // before hc.mu: waiting for a slot must not block others
	if err != nil {
		return nil, nil, err
	}
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if hc.sftp != nil {
		release()
		return hc.sftp, hc, nil
	}
	c, err = openSFTP(hc.client, p.eps[host].become)
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("%s: sftp: %w", host, err)
	}
	hc.sftp = c
	go func() { c.Wait(); release() }()
	return c, hc, nil
}

func openSFTP(c *ssh.Client, become bool) (*sftp.Client, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	if become {
		err = sess.Start(sftpServerCmd)
	} else {
		err = sess.RequestSubsystem("sftp")
	}
	if err != nil {
		sess.Close()
		return nil, err
	}
	sc, err := sftp.NewClientPipe(stdout, stdin, sftp.UseConcurrentWrites(true))
	if err != nil {
		sess.Close()
		if become {
			return nil, fmt.Errorf("%w (is sudo allowed without a password? see preflight)", err)
		}
		return nil, err
	}
	go func() { sc.Wait(); sess.Close() }()
	return sc, nil
}

// withSFTP runs fn with the host's SFTP client. When ctx ends first, the
// client is closed (aborting fn) and replaced on next use.
func (p *Pool) withSFTP(ctx context.Context, host string, fn func(c *sftp.Client) error) error {
	c, hc, err := p.sftpClient(ctx, host)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() {
		hc.mu.Lock()
		if hc.sftp == c {
			hc.sftp = nil
		}
		hc.mu.Unlock()
		c.Close()
	})
	err = fn(c)
	if !stop() {
		return fmt.Errorf("%s: %w (sftp aborted: %w)", host, ctx.Err(), err)
	}
	if errors.Is(err, sftp.ErrSSHFxConnectionLost) {
		hc.mu.Lock()
		if hc.sftp == c {
			hc.sftp = nil
		}
		hc.mu.Unlock()
	}
	return err
}
