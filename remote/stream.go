package remote

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

// Stream is a command started on a host with its stdin and stdout as pipes,
// for long-lived conversations such as `benchbed agent` (a job on stdin,
// JSON lines on stdout). Unlike Run, the command itself reads stdin: closing
// Stdin is how it is told to stop.
type Stream struct {
	Host   string
	Cmd    string
	Stdin  io.WriteCloser // the command's stdin; Close sends EOF
	Stdout io.Reader      // the command's stdout; read it until EOF

	sess    *ssh.Session
	pid     string // the command's process id on the host
	kill    func(pid string)
	stderr  *tailBuffer
	release func()
	once    sync.Once
	done    chan struct{}
	err     error
}

// Start starts cmd on host (through sudo when the host's Become is set)
// with its stdin and stdout connected to the returned Stream; stderr is
// kept (its tail) for the error. When ctx ends, stdin is closed and the
// command is sent SIGTERM. Call Wait once stdout has been read.
func (p *Pool) Start(ctx context.Context, host, cmd string) (*Stream, error) {
	hc, err := p.conn(ctx, host)
	if err != nil {
		return nil, err
	}
	release, err := hc.acquire(ctx)
	if err != nil {
		return nil, err
	}
	s, err := startStream(hc.current(), host, cmd, p.eps[host] != nil && p.eps[host].become)
	if err != nil {
		release()
		return nil, err
	}
	s.release = release
	s.kill = func(pid string) {
		kctx, cancel := context.WithTimeout(context.Background(), 2*killGrace)
		defer cancel()
		_, _ = p.Run(kctx, host, "kill -KILL -"+pid+" 2>/dev/null; true")
	}
	go s.watch(ctx)
	return s, nil
}

func startStream(c *ssh.Client, host, cmd string, become bool) (*Stream, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, fmt.Errorf("%s: open session: %w", host, err)
	}
	s := &Stream{Host: host, Cmd: cmd, sess: sess, stderr: &tailBuffer{limit: MaxStderr}, done: make(chan struct{})}
	if s.Stdin, err = sess.StdinPipe(); err == nil {
		s.Stdout, err = sess.StdoutPipe()
	}
	if err != nil {
		sess.Close()
		return nil, fmt.Errorf("%s: %w", host, err)
	}
	sess.Stderr = s.stderr
	// In a session of its own, a shell says its pid (the process group's)
	// and becomes the command: one that ignores both its stdin's end and
	// SIGTERM can still be killed, with its children, by process group.
	line := "setsid -w /bin/sh -c " + Quote(`echo $$; exec /bin/sh -c "$1"`) + " sh " + Quote(cmd)
	if become {
		line = "sudo -n -- " + line
	}
	if err := sess.Start(line); err != nil {
		sess.Close()
		return nil, fmt.Errorf("%s: start %q: %w", host, cmd, err)
	}
	br := bufio.NewReader(s.Stdout)
	first, err := br.ReadString('\n')
	s.pid = strings.TrimSpace(first)
	if _, perr := strconv.Atoi(s.pid); err != nil || perr != nil {
		sess.Close()
		return nil, fmt.Errorf("%s: start %q: no process id (%q): %v", host, cmd, first, err)
	}
	s.Stdout = br
	return s, nil
}

// watch stops the command when ctx ends before it does: its stdin is
// closed and it is sent SIGTERM; after killGrace its process group is killed.
func (s *Stream) watch(ctx context.Context) {
	select {
	case <-s.done:
	case <-ctx.Done():
		s.Stdin.Close()
		_ = s.sess.Signal(ssh.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(killGrace):
			s.kill(s.pid)
		}
	}
}

// Wait waits for the command to end (read Stdout to its end first) and
// returns nil or an *ExitError with the tail of its stderr. It may be
// called more than once.
func (s *Stream) Wait() error {
	s.once.Do(func() {
		err := s.sess.Wait()
		close(s.done)
		s.sess.Close()
		s.release()
		res := &Result{Host: s.Host, Cmd: s.Cmd, Stderr: s.stderr.buf}
		s.err = exitError(context.Background(), res, err)
	})
	return s.err
}
