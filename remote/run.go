package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
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
// Cmd, Stdout and StderrTail are as the host gave them: mask secrets before
// printing.
type ExitError struct {
	Host       string
	Cmd        string
	Code       int    // exit status; -1 when the command died by a signal or the connection dropped
	Signal     string // the signal that killed it, if any
	StderrTail string // the last lines of stderr
	Stdout     string // the beginning of stdout (for Detail)
}

// Error says in one line the host, the command (its first line, a script
// summarised: CommandSummary), how it ended and the last line of its stderr, the
// cause. Detail has the whole script and output, for a log file.
func (e *ExitError) Error() string {
	how := fmt.Sprintf("exited with status %d", e.Code)
	if e.Signal != "" {
		how = "killed by signal " + e.Signal
	} else if e.Code < 0 {
		how = "ended without an exit status (connection lost?)"
	}
	msg := fmt.Sprintf("%s: %s %s", e.Host, CommandSummary(e.Cmd), how)
	if cause := lastLine(e.StderrTail); cause != "" {
		msg += ": " + cause
	}
	return msg
}

// Detail is the whole command, its stdout and its stderr's end, for the
// run directory's log (never the terminal: a script may be long).
func (e *ExitError) Detail() string {
	return fmt.Sprintf("%s\n--- command:\n%s\n--- stdout:\n%s\n--- stderr (end):\n%s\n", e.Error(), e.Cmd, e.Stdout, e.StderrTail)
}

// summaryMax is how much of a command's first line CommandSummary keeps.
const summaryMax = 72

// CommandSummary is cmd for a one-line message: quoted when it is one short line,
// else its first line cut to summaryMax bytes and the number of lines.
func CommandSummary(cmd string) string {
	first, rest, multi := strings.Cut(strings.TrimSpace(cmd), "\n")
	if !multi && len(first) <= summaryMax {
		return strconv.Quote(first)
	}
	if len(first) > summaryMax {
		first = first[:summaryMax] + "..."
	}
	n := 1
	if multi {
		n += strings.Count(rest, "\n") + 1
	}
	return fmt.Sprintf("%s (a %d-line script)", strconv.Quote(first), n)
}

// lastLine is the last non-blank line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// ExitErrors are the *ExitErrors in err's tree (errors.Join, %w), in order.
func ExitErrors(err error) []*ExitError {
	var out []*ExitError
	var walk func(error)
	walk = func(err error) {
		if ee, ok := err.(*ExitError); ok {
			out = append(out, ee)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	if err != nil {
		walk(err)
	}
	return out
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
// the Output option and a context that is not Quiet, streamed live. A non-zero exit returns the Result and an
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
	flush := p.attach(ctx, sess, host, out, errOut)
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
// streams output and ctx is not Quiet, to the live prefixed writers. flush
// ends the live lines.
func (p *Pool) attach(ctx context.Context, sess *ssh.Session, host string, out, errOut io.Writer) (flush func()) {
	if p.out == nil || isQuiet(ctx) {
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
	ee := &ExitError{Host: res.Host, Cmd: res.Cmd, Code: -1, StderrTail: lastLines(res.Stderr, tailLines, tailMaxLen),
		Stdout: string(res.Stdout)}
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
