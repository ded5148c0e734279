package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
)

// PreflightResult is what Preflight found on one host.
type PreflightResult struct {
	Host      string
	Address   string   // user@host:port dialed
	Reachable bool     // connected and authenticated
	HostKey   string   // "known", "recorded" (accept-new), "unknown", "CHANGED", or "-" when not reached
	Sudo      string   // "ok", "not used" (no Become), "fails: <sudo's message>", or "-"
	SFTP      string   // "ok", "fails", or "-"
	Missing   []string // required commands not found on the host
	Err       error    // the first problem; nil when the host is ready
}

// PreflightReport is the preflight of every host, in pool order.
type PreflightReport []PreflightResult

// Preflight checks every host of p before any change: reachable, host key
// known, sudo works (for Become hosts), SFTP opens, and the required commands
// (plus setsid, which Run needs) are on the PATH (root's, under Become).
func Preflight(ctx context.Context, p *Pool, commands []string) PreflightReport {
	hosts := p.Hosts()
	rep := make(PreflightReport, len(hosts))
	p.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		i := indexOf(hosts, host)
		rep[i] = p.preflightHost(ctx, host, append([]string{"setsid"}, commands...))
		return rep[i].Err
	})
	return rep
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func (p *Pool) preflightHost(ctx context.Context, host string, commands []string) PreflightResult {
	ep := p.eps[host]
	r := PreflightResult{Host: host, Address: ep.user + "@" + ep.addr(), HostKey: "-", Sudo: "-", SFTP: "-"}
	if err := p.Connect(ctx, host); err != nil {
		r.Err = err
		switch {
		case errors.Is(err, ErrUnknownHostKey):
			r.HostKey = "unknown"
		case errors.Is(err, ErrChangedHostKey):
			r.HostKey = "CHANGED"
		}
		return r
	}
	r.Reachable, r.HostKey = true, "known"
	if ep.recorded.Load() {
		r.HostKey = "recorded"
	}
	res, err := p.run(Quiet(ctx), host, "preflight", preflightScript(commands, ep.become))
	if err != nil {
		r.Err = err
		return r
	}
	r.Sudo, r.Missing = parsePreflight(string(res.Stdout), ep.become)
	if _, _, err := p.sftpClient(ctx, host); err != nil {
		r.SFTP = "fails"
		r.Err = err
	} else {
		r.SFTP = "ok"
	}
	switch {
	case strings.HasPrefix(r.Sudo, "fails"):
		r.Err = fmt.Errorf("%s: sudo -n %s", host, r.Sudo)
	case len(r.Missing) > 0:
		r.Err = fmt.Errorf("%s: missing commands: %s", host, strings.Join(r.Missing, ", "))
	}
	return r
}

// preflightScript prints "sudo ok|fail MSG" then "missing CMD" per absent
// command; under Become the commands are looked up as root.
func preflightScript(commands []string, become bool) string {
	var q []string
	for _, c := range commands {
		q = append(q, Quote(c))
	}
	check := Quote(`for c in ` + strings.Join(q, " ") +
		`; do command -v "$c" >/dev/null 2>&1 || echo "missing $c"; done`)
	if !become {
		return `echo "sudo unused"; /bin/sh -c ` + check
	}
	return `if m=$(sudo -n true 2>&1); then echo "sudo ok"; sudo -n /bin/sh -c ` + check +
		`; else echo "sudo fail $(echo "$m" | head -n 1)"; /bin/sh -c ` + check + `; fi`
}

func parsePreflight(out string, become bool) (sudo string, missing []string) {
	sudo = "not used"
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "sudo ok"):
			sudo = "ok"
		case strings.HasPrefix(l, "sudo fail"):
			sudo = "fails: " + strings.TrimSpace(strings.TrimPrefix(l, "sudo fail"))
		case strings.HasPrefix(l, "missing "):
			missing = append(missing, strings.TrimPrefix(l, "missing "))
		}
	}
	return sudo, missing
}

// Err is nil when every host is ready; otherwise it names the hosts that
// are not and wraps their errors.
func (r PreflightReport) Err() error {
	s := &Outcomes{}
	for _, x := range r {
		s.Results = append(s.Results, HostResult{Host: x.Host, Err: x.Err})
	}
	return s.Err()
}

// Render writes the report as one table, a row per host.
func (r PreflightReport) Render(w io.Writer) error {
	t := tablewriter.NewWriter(w)
	t.Header("Host", "Address", "SSH", "Host key", "Sudo", "SFTP", "Missing", "Problem")
	for _, x := range r {
		ssh, problem := "ok", ""
		if !x.Reachable {
			ssh = "fails"
		}
		if x.Err != nil {
			problem = x.Err.Error()
			if len(problem) > 120 {
				problem = problem[:117] + "..."
			}
		}
		if err := t.Append(x.Host, x.Address, ssh, x.HostKey, x.Sudo, x.SFTP, strings.Join(x.Missing, " "), problem); err != nil {
			return err
		}
	}
	return t.Render()
}
