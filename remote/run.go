package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// Limits of what Run keeps of a command's output.
const (
	MaxStdout  = 4 << 20  // bytes of stdout kept in a Result (the head)
	MaxStderr  = 64 << 10 // bytes of stderr kept in a Result (the tail)
	killGrace  = 5 * time.Second
	tailLines  = 10
	tailMaxLen = 2048
)

// Result is the outcome of one command that ran to the end.
type Result struct {
	Host     string
	Cmd      string
	Code     int    // exit status
	Stdout   []byte // at most MaxStdout bytes, the beginning
	Stderr   []byte // at most MaxStderr bytes, the end
	Duration time.Duration
}

// ExitError is a command that exited non-zero, or died without a status.
// Cmd and StderrTail are as the host gave them: mask secrets before printing.
type ExitError struct {
	Host       string
	Cmd        string
	Code       int    // exit status; -1 when the command died by a signal or the connection dropped
	Signal     string // the signal that killed it, if any
	StderrTail string // the last lines of stderr
}

// Error names the host, the command and how it ended.
func (e *ExitError) Error() string {
	how := fmt.Sprintf("exited with status %d", e.Code)
	if e.Signal != "" {
		how = "killed by signal " + e.Signal
	} else if e.Code < 0 {
		how = "ended without an exit status (connection lost?)"
	}
	msg := fmt.Sprintf("%s: %q %s", e.Host, e.Cmd, how)
	if e.StderrTail != "" {
		msg += ": " + e.StderrTail
	}
	return msg
}

// wrapper runs "$1" in a new session (its own process group) and watches its
// own stdin: when the SSH channel closes before the command ends (the client
// cancelled or vanished), it kills the whole group, TERM then KILL. It must
// not contain single quotes.
const wrapper = `exec 3<&0
setsid /bin/sh -c "$1" </dev/null & p=$!
{ while read -r _ <&3; do :; done; trap "" TERM HUP
  kill -TERM -"$p"; i=0
  while [ $i -lt 30 ] && kill -0 -"$p"; do sleep 0.1; i=$((i+1)); done
  kill -KILL -"$p"; } >/dev/null 2>&1 &
w=$!
exec 3<&-
wait "$p"; rc=$?
kill "$w" 2>/dev/null
exit $rc`

// Quote quotes s for a POSIX shell, leaving a word of only safe
// characters (letters, digits and -_./:=@,+) as it is, so that the command
// lines a host logs stay readable.
func Quote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commandLine is what the login shell on the host executes for cmd.
func commandLine(cmd string, become bool) string {
	line := "/bin/sh -c " + Quote(wrapper) + " benchbed " + Quote(cmd)
	if become {
		line = "sudo -n -- " + line
	}
	return line
}

// Run runs cmd with /bin/sh on host (through sudo when the host's Config
// says Become) and waits for it. Output is captured in the Result and, with
// the Output option, streamed live. A non-zero exit returns the Result and an
// error wrapping *ExitError. Cancelling ctx kills the command and everything
// it started, and returns ctx's error.
func (p *Pool) Run(ctx context.Context, host, cmd string) (*Result, error) {
	return p.run(ctx, host, cmd, commandLine(cmd, p.eps[host] != nil && p.eps[host].become))
}

func (p *Pool) run(ctx context.Context, host, cmd, line string) (*Result, error) {
	hc, err := p.conn(ctx, host)
	if err != nil {
		return nil, err
	}
	release, err := hc.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	sess, err := hc.current().NewSession()
	if err != nil {
		return nil, fmt.Errorf("%s: open session: %w", host, err)
	}
	defer sess.Close()
	stdin, err := sess.StdinPipe() // kept open: its EOF is the remote kill signal
	if err != nil {
		return nil, fmt.Errorf("%s: %w", host, err)
	}
	out, errOut := &headBuffer{limit: MaxStdout}, &tailBuffer{limit: MaxStderr}
	flush := p.attach(sess, host, out, errOut)
	start := time.Now()
	if err := sess.Start(line); err != nil {
		return nil, fmt.Errorf("%s: start %q: %w", host, cmd, err)
	}
	err = wait(ctx, sess, stdin)
	flush()
	res := &Result{Host: host, Cmd: cmd, Stdout: out.buf, Stderr: errOut.buf, Duration: time.Since(start)}
	return res, exitError(ctx, res, err)
}

// attach sets the session's stdout and stderr to capture and, when the pool
// streams output, to the live prefixed writers. flush ends the live lines.
func (p *Pool) attach(sess *ssh.Session, host string, out, errOut io.Writer) (flush func()) {
	if p.out == nil {
		sess.Stdout, sess.Stderr = out, errOut
		return func() {}
	}
	lo, le := newPrefixWriter(p.out, host+": "), newPrefixWriter(p.out, host+"! ")
	sess.Stdout, sess.Stderr = io.MultiWriter(out, lo), io.MultiWriter(errOut, le)
	return func() { lo.Flush(); le.Flush() }
}

// wait waits for the command; on cancel it closes stdin, which makes the
// remote wrapper kill the command's process group, and waits a little for
// the remote side to report the end.
func wait(ctx context.Context, sess *ssh.Session, stdin io.Closer) error {
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stdin.Close()
	select {
	case <-done:
	case <-time.After(killGrace):
	}
	return ctx.Err()
}

// exitError maps the session's end to the error Run returns.
func exitError(ctx context.Context, res *Result, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		res.Code = -1
		return fmt.Errorf("%s: %q cancelled, remote command killed: %w", res.Host, res.Cmd, err)
	}
	ee := &ExitError{Host: res.Host, Cmd: res.Cmd, Code: -1, StderrTail: lastLines(res.Stderr, tailLines, tailMaxLen)}
	var se *ssh.ExitError
	var missing *ssh.ExitMissingError
	switch {
	case errors.As(err, &se):
		ee.Code, ee.Signal = se.ExitStatus(), se.Signal()
		if ee.Signal != "" {
			ee.Code = -1
		}
	case errors.As(err, &missing):
	default:
		return fmt.Errorf("%s: %q: %w", res.Host, res.Cmd, err)
	}
	res.Code = ee.Code
	return ee
}
