package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// maxSessions bounds the sessions open at once on one connection; OpenSSH's
// MaxSessions defaults to 10 and refuses more.
const maxSessions = 8

// DefaultParallelism is how many hosts FanOut works on at once by default.
const DefaultParallelism = 32

// Pool holds one SSH connection per host, opened on first use and reused
// for every command and transfer. It is safe for concurrent use.
type Pool struct {
	eps         map[string]*endpoint
	order       []string
	out         *syncWriter // live output, nil = none
	parallelism int

	mu    sync.Mutex
	conns map[string]*hostConn // by host name, and by jump chain
	state runState             // owners and binaries of this run

	// ping, when set (a test's seam), answers each keepalive in place of
	// pingOnce: whether the peer answered it within wait; nil (always,
	// outside tests): pingOnce.
	ping func(c *ssh.Client, wait time.Duration) bool
}

// Option configures a Pool.
type Option func(*Pool)

// Output streams every command's output live to w as whole lines:
// "host: line" for stdout and "host! line" for stderr. Lines of different
// hosts never mix within a line. Each stream of each command (its stdout,
// its stderr) gets a filter of its own from newFilter, which sees every
// line (without its newline) before it is written and returns what is
// written: the caller's masking of secrets, which may keep state across the
// lines of a stream (a conf's section). A nil newFilter writes the lines as
// they are. Commands run with a Quiet context are not streamed.
func Output(w io.Writer, newFilter func() func(line string) string) Option {
	return func(p *Pool) { p.out = &syncWriter{w: w, newFilter: newFilter} }
}

// Parallelism sets how many hosts FanOut and Preflight work on at once.
func Parallelism(n int) Option {
	return func(p *Pool) {
		if n > 0 {
			p.parallelism = n
		}
	}
}

// NewPool resolves every host's Config (ssh_config, defaults) without
// connecting. Host names must be unique.
func NewPool(cfgs []Config, opts ...Option) (*Pool, error) {
	p := &Pool{eps: map[string]*endpoint{}, conns: map[string]*hostConn{}, parallelism: DefaultParallelism}
	var errs []error
	for _, c := range cfgs {
		ep, err := c.resolve()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if p.eps[c.Name] != nil {
			errs = append(errs, fmt.Errorf("remote: host %q is configured twice", c.Name))
			continue
		}
		p.eps[c.Name] = ep
		p.order = append(p.order, c.Name)
	}
	for _, o := range opts {
		o(p)
	}
	return p, errors.Join(errs...)
}

// Hosts returns the host names in configuration order.
func (p *Pool) Hosts() []string { return slices.Clone(p.order) }

// hostConn is one live connection and what rides on it.
type hostConn struct {
	mu     sync.Mutex // guards dialing and the fields below
	client *ssh.Client
	closed chan struct{} // closed when client's connection ends
	sftp   *sftp.Client
	sem    chan struct{} // session slots
}

func (hc *hostConn) alive() bool {
	if hc.client == nil {
		return false
	}
	select {
	case <-hc.closed:
		return false
	default:
		return true
	}
}

// Connect opens the host's connection now (it is otherwise opened on first
// use), through its jump hosts if any.
func (p *Pool) Connect(ctx context.Context, host string) error {
	_, err := p.conn(ctx, host)
	return err
}

// conn returns the host's live connection, dialing it when needed.
func (p *Pool) conn(ctx context.Context, host string) (*hostConn, error) {
	ep := p.eps[host]
	if ep == nil {
		return nil, fmt.Errorf("remote: unknown host %q", host)
	}
	via := directDial(ep.timeout)
	for i, j := range ep.jumps {
		hc, err := p.connTo(ctx, chainKey(ep.jumps[:i+1]), j, via)
		if err != nil {
			return nil, err
		}
		via = viaDial(hc.current(), ep.timeout)
	}
	return p.connTo(ctx, "host "+host, ep, via)
}

func chainKey(hops []*endpoint) string {
	var parts []string
	for _, h := range hops {
		parts = append(parts, h.user+"@"+h.addr())
	}
	return "jump " + strings.Join(parts, ",")
}

// connTo returns the cached connection under key, dialing when it is absent
// or dead; concurrent callers for one key share a single dial.
func (p *Pool) connTo(ctx context.Context, key string, ep *endpoint, via dialFunc) (*hostConn, error) {
	p.mu.Lock()
	hc := p.conns[key]
	if hc == nil {
		hc = &hostConn{sem: make(chan struct{}, maxSessions)}
		p.conns[key] = hc
	}
	p.mu.Unlock()
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if hc.alive() {
		return hc, nil
	}
	hc.sftp = nil
	c, err := dial(ctx, ep, via)
	if err != nil {
		return nil, err
	}
	hc.client, hc.closed = c, make(chan struct{})
	go func(c *ssh.Client, closed chan struct{}) { c.Wait(); close(closed) }(c, hc.closed)
	ping := p.ping
	if ping == nil {
		ping = pingOnce
	}
	keepAlive(c, ep.keepAlive, hc.closed, ping)
	return hc, nil
}

// current is the live client (it changes when a dead connection is
// redialed).
func (hc *hostConn) current() *ssh.Client {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	return hc.client
}

// acquire takes a session slot on hc, or fails when ctx ends first.
func (hc *hostConn) acquire(ctx context.Context) (release func(), err error) {
	select {
	case hc.sem <- struct{}{}:
		return func() { <-hc.sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close closes every connection: hosts first, then jump hosts.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, jumps := range []bool{false, true} {
		for key, hc := range p.conns {
			if strings.HasPrefix(key, "jump ") != jumps {
				continue
			}
			hc.mu.Lock()
			if hc.sftp != nil {
				hc.sftp.Close()
				hc.sftp = nil
			}
			if hc.client != nil {
				if err := hc.client.Close(); err != nil && !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "closed") {
					errs = append(errs, err)
				}
			}
			hc.mu.Unlock()
		}
	}
	p.conns = map[string]*hostConn{}
	return errors.Join(errs...)
}
