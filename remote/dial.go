package remote

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// ErrTimeout marks a TCP connect or SSH handshake that took longer than
// Config.ConnectTimeout.
var ErrTimeout = errors.New("timed out")

// permanentError is a dial failure that retrying cannot fix.
type permanentError struct{ error }

func (p permanentError) Unwrap() error { return p.error }

// dialFunc opens the TCP connection: directly or through a jump host.
type dialFunc func(ctx context.Context, addr string) (net.Conn, error)

func directDial(timeout time.Duration) dialFunc {
	return func(ctx context.Context, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: timeout}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		return quickAck(c), nil
	}
}

func viaDial(c *ssh.Client, timeout time.Duration) dialFunc {
	return func(ctx context.Context, addr string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return c.DialContext(ctx, "tcp", addr)
	}
}

// dial connects to ep with retries and backoff; only the connect and the
// handshake are retried, and never after a host key or authentication error.
func dial(ctx context.Context, ep *endpoint, via dialFunc) (*ssh.Client, error) {
	retries := max(ep.retries, 0)
	backoff := 250 * time.Millisecond
	for attempt := 0; ; attempt++ {
		c, err := dialOnce(ctx, ep, via)
		if err == nil {
			return c, nil
		}
		var perm permanentError
		if errors.As(err, &perm) || attempt >= retries || ctx.Err() != nil {
			return nil, err
		}
		wait := backoff + rand.N(backoff/2)
		backoff = min(2*backoff, 4*time.Second)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (gave up: %w)", err, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// dialOnce makes one TCP connection and one handshake, each bounded by
// ep.timeout: the handshake by a deadline on the connection.
func dialOnce(ctx context.Context, ep *endpoint, via dialFunc) (*ssh.Client, error) {
	keys, err := loadKeys(ep)
	if err != nil {
		return nil, permanentError{err}
	}
	defer keys.close()
	hk, err := newHostKeys(ep)
	if err != nil {
		return nil, permanentError{err}
	}
	where := fmt.Sprintf("%s: %s@%s", ep.name, ep.user, ep.addr())
	conn, err := via(ctx, ep.addr())
	if err != nil {
		if isTimeout(err) {
			return nil, fmt.Errorf("%s: connect: %w after %s", where, ErrTimeout, ep.timeout)
		}
		return nil, fmt.Errorf("%s: connect: %w", where, err)
	}
	cfg := &ssh.ClientConfig{
		User:              ep.user,
		Auth:              []ssh.AuthMethod{ssh.PublicKeysCallback(func() ([]ssh.Signer, error) { return keys.signers, nil })},
		HostKeyCallback:   hk.callback,
		HostKeyAlgorithms: hk.algorithms,
		ClientVersion:     "SSH-2.0-benchbed",
		Timeout:           ep.timeout,
	}
	expired, stop := deadline(ctx, conn, ep.timeout)
	c, chans, reqs, err := ssh.NewClientConn(conn, ep.addr(), cfg)
	stop()
	if err != nil {
		conn.Close()
		return nil, handshakeError(where, ep, err, expired())
	}
	return ssh.NewClient(c, chans, reqs), nil
}

// deadline bounds the handshake: conn.SetDeadline where the connection
// supports it (TCP), otherwise a timer that closes it (a jump channel).
// A cancelled ctx closes the connection too. stop must be called once the
// handshake returns; expired reports whether the time ran out.
func deadline(ctx context.Context, conn net.Conn, d time.Duration) (expired func() bool, stop func()) {
	start := time.Now()
	expired = func() bool { return time.Since(start) >= d }
	stopCtx := context.AfterFunc(ctx, func() { conn.Close() })
	if conn.SetDeadline(start.Add(d)) == nil {
		return expired, func() { stopCtx(); conn.SetDeadline(time.Time{}) }
	}
	t := time.AfterFunc(d, func() { conn.Close() })
	return expired, func() { stopCtx(); t.Stop() }
}

func handshakeError(where string, ep *endpoint, err error, expired bool) error {
	var hke *HostKeyError
	switch {
	case errors.As(err, &hke):
		return permanentError{hke}
	case strings.Contains(err.Error(), "unable to authenticate"):
		return permanentError{fmt.Errorf("%s: authentication failed (tried %d key(s); check User and IdentityFiles): %w",
			where, len(ep.identities), err)}
	case strings.Contains(err.Error(), "host key"), strings.Contains(err.Error(), "identity file"):
		return permanentError{fmt.Errorf("%s: %w", where, err)}
	case expired || isTimeout(err):
		return fmt.Errorf("%s: SSH handshake: %w after %s", where, ErrTimeout, ep.timeout)
	}
	return fmt.Errorf("%s: SSH handshake: %w", where, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout())
}

// keepAlive sends keepalive@openssh.com every interval (by ping, given
// the interval as its wait) and closes c after three unanswered requests
// in a row; it stops when closed is closed.
func keepAlive(c *ssh.Client, interval time.Duration, closed <-chan struct{}, ping func(*ssh.Client, time.Duration) bool) {
	if interval <= 0 {
		return
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		misses := 0
		for {
			select {
			case <-closed:
				return
			case <-t.C:
			}
			if ping(c, interval) {
				misses = 0
			} else if misses++; misses >= 3 {
				c.Close()
				return
			}
		}
	}()
}

func pingOnce(c *ssh.Client, wait time.Duration) bool {
	reply := make(chan error, 1)
	go func() { _, _, err := c.SendRequest("keepalive@openssh.com", true, nil); reply <- err }()
	select {
	case err := <-reply:
		return err == nil
	case <-time.After(wait):
		return false
	}
}
