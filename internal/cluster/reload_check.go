package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"benchbed/remote"
)

// What CheckDaemons found of a daemon.
const (
	// CheckCurrent: a daemon to bring to its files (Reload) that runs them
	// all: its ReloadScript would print "current".
	CheckCurrent = "current"
	// CheckRunning: a daemon only to keep running that runs.
	CheckRunning = "running"
)

// CheckDaemons finds out, in one round trip to host, which of ds need no
// round trip of their own: for each daemon that bring[i] marks and that
// reloads in place (Reload), whether ReloadScript would leave it alone
// (the same decision, reloadDecision: CheckCurrent); for each that bring
// does not mark, whether it runs (StatusScript: CheckRunning). Any other
// answer is "": a daemon to start, restart or reload, one bring marks
// that restarts in any case (not checked), or every daemon when the check
// fails, which the caller's own round trip per daemon then decides.
func CheckDaemons(ctx context.Context, p Runner, host string, ds []Daemon, bring []bool) []string {
	out := make([]string, len(ds))
	var sb strings.Builder
	for i, d := range ds {
		switch {
		case bring[i] && d.Reload:
			fmt.Fprintf(&sb, "(\n%s\n[ \"$act\" = current ] && echo '%d %s'\n)\n", d.reloadDecision(), i, CheckCurrent)
		case !bring[i]:
			fmt.Fprintf(&sb, "( ( %s\n) >/dev/null 2>&1 && echo '%d %s' )\n", d.StatusScript(), i, CheckRunning)
		}
	}
	if sb.Len() == 0 {
		return out
	}
	res, err := p.Run(remote.Quiet(ctx), host, liveFuncs+sb.String()+"exit 0")
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(res.Stdout), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		i, err := strconv.Atoi(f[0])
		if err != nil || i < 0 || i >= len(ds) {
			continue
		}
		want := CheckRunning
		if bring[i] {
			want = CheckCurrent
		}
		if f[1] == want {
			out[i] = want
		}
	}
	return out
}
