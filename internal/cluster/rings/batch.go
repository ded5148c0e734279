package rings

import (
	"benchbed/internal/cluster"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/remote"
)

// ringCmd is one swift-ring-builder command of a ring: its arguments,
// the builder file first.
type ringCmd struct {
	ring *plan.Ring
	args []string
}

// ringBatchPy runs swift-ring-builder commands (argv[1]: a JSON list of
// argument lists, each without the program name) in one Python process,
// in order: every start of the command imports Swift again (0.5-1 s on a
// busy 2-core machine; a new cluster's three rings took 21 of them). After
// each command's own output (stderr with it, as `2>&1`) it prints the line
// "benchbed-ring N STATUS", and it stops after the first command that did
// not succeed, a rebalance's warning (status 1) aside. It exits 10 when
// this python3 has no Swift.
const ringBatchPy = `import contextlib, json, sys, traceback
try:
    from swift.cli.ringbuilder import main
except ImportError:
    sys.exit(10)
for n, args in enumerate(json.loads(sys.argv[1]), 1):
    try:
        with contextlib.redirect_stderr(sys.stdout):
            main(["swift-ring-builder"] + args)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except Exception:
        traceback.print_exc(file=sys.stdout)
        code = 2
    print("benchbed-ring %d %d" % (n, code), flush=True)
    if code != 0 and not (code == 1 and args[1:2] == ["rebalance"]):
        break
`

// ringStatus is the line ringBatchPy prints after each command.
const ringStatus = "benchbed-ring "

// runRingCmds runs cmds on host, in order, in one Python process
// (ringBatchPy); without Swift in that python3 (or without /usr/bin/python3),
// one swift-ring-builder process each. A rebalance's warning is reported,
// not an error; the first other failure ends the batch with an error that
// names the host, the ring, the command and its output. done is how many
// of cmds ran to their end (a warned rebalance included).
func runRingCmds(ctx context.Context, p *remote.Pool, host string, cmds []ringCmd, rep *cluster.Report) (done int, err error) {
	if len(cmds) == 0 {
		return 0, nil
	}
	script, err := ringBatchScript(cmds)
	if err != nil {
		return 0, err
	}
	res, err := p.Run(ctx, host, script)
	var exit *remote.ExitError
	if errors.As(err, &exit) && (exit.Code == 10 || exit.Code == 127) {
		for i, c := range cmds {
			if err := runRingCmd(ctx, p, host, c, rep); err != nil {
				return i, err
			}
		}
		return len(cmds), nil
	}
	if err != nil {
		return 0, fmt.Errorf("swift-ring-builder on %s: %w: %s", host, err, oneLine(stdoutOf(res)))
	}
	return ringBatchResult(host, cmds, string(res.Stdout), rep)
}

// ringBatchScript is the shell command that runs cmds with ringBatchPy.
func ringBatchScript(cmds []ringCmd) (string, error) {
	argv := make([][]string, len(cmds))
	for i, c := range cmds {
		argv[i] = c.args
	}
	js, err := json.Marshal(argv)
	if err != nil {
		return "", err
	}
	return "/usr/bin/python3 - " + remote.Quote(string(js)) + " <<'PY'\n" + ringBatchPy + "PY", nil
}

// ringBatchResult reads ringBatchPy's output: every command's status, in
// order, each after its own output; done is how many ran to their end.
func ringBatchResult(host string, cmds []ringCmd, out string, rep *cluster.Report) (done int, err error) {
	var text []string
	for _, l := range strings.Split(out, "\n") {
		n, code, ok := parseRingStatus(l)
		if !ok {
			text = append(text, l)
			continue
		}
		if n != done+1 || n > len(cmds) {
			return done, fmt.Errorf("swift-ring-builder on %s: status of command %d after %d of %d", host, n, done, len(cmds))
		}
		c, said := cmds[n-1], []byte(strings.Join(text, "\n"))
		text = nil
		if err := ringOutcome(host, c, code, said, rep); err != nil {
			return done, err
		}
		done = n
	}
	if done < len(cmds) {
		return done, fmt.Errorf("swift-ring-builder on %s: %d of %d commands ran: %s", host, done, len(cmds), oneLine([]byte(strings.Join(text, "\n"))))
	}
	return done, nil
}

// parseRingStatus reads a "benchbed-ring N STATUS" line.
func parseRingStatus(l string) (n, code int, ok bool) {
	f := strings.Fields(strings.TrimPrefix(l, ringStatus))
	if !strings.HasPrefix(l, ringStatus) || len(f) != 2 {
		return 0, 0, false
	}
	n, err1 := strconv.Atoi(f[0])
	code, err2 := strconv.Atoi(f[1])
	return n, code, err1 == nil && err2 == nil
}

// ringOutcome is one command's status: a rebalance's warning (1: min_part_hours kept
// partitions in place, or nothing needed to move) is reported with
// swift-ring-builder's words; write_ring follows it anyway, and the next
// setup rebalances again while the builder has unbalanced device changes.
// Any other failure is an error.
func ringOutcome(host string, c ringCmd, code int, out []byte, rep *cluster.Report) error {
	switch {
	case code == 0:
		return nil
	case code == 1 && len(c.args) > 1 && c.args[1] == "rebalance":
		rep.Change(host, "ring %s: rebalance warned (min_part_hours %d): %s", c.ring.Name, c.ring.MinPartHours, oneLine(out))
		return nil
	}
	return fmt.Errorf("ring %s: %s: swift-ring-builder %s: exit status %d: %s", c.ring.Name, host, strings.Join(c.args, " "), code, oneLine(out))
}

// runRingCmd runs one swift-ring-builder command on host, in a process of
// its own (runRingCmds' way without Swift in /usr/bin/python3).
func runRingCmd(ctx context.Context, p *remote.Pool, host string, c ringCmd, rep *cluster.Report) error {
	res, err := p.Run(ctx, host, srbLine(c.args)+" 2>&1")
	var exit *remote.ExitError
	if errors.As(err, &exit) {
		return ringOutcome(host, c, exit.Code, stdoutOf(res), rep)
	}
	if err != nil {
		return fmt.Errorf("ring %s: %w: %s", c.ring.Name, err, oneLine(stdoutOf(res)))
	}
	return nil
}

// stdoutOf is a command's stdout (none when it did not run).
func stdoutOf(res *remote.Result) []byte {
	if res == nil {
		return nil
	}
	return res.Stdout
}

// oneLine gives a command's output on one line, shortened.
func oneLine(out []byte) string {
	s := strings.Join(strings.Fields(string(out)), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
