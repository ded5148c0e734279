package faults

import (
	"fmt"

	"benchbed/plan"
	"benchbed/remote"
)

// pidsFunc is the shell function pids, which prints the pids of the
// service's processes: a direct service's process group (its pid file),
// else the processes whose command line holds its conf (the first
// character bracketed, so that the pattern does not match the shell that
// runs it).
func pidsFunc(s Service) (string, error) {
	switch {
	case s.Manager == plan.ManagerDirect && s.PidFile != "":
		return fmt.Sprintf(`pids() { g=$(cat %s 2>/dev/null) && [ -n "$g" ] && live $(pgrep -g "$g"); }
`, remote.Quote(s.PidFile)) + liveFunc, nil
	case s.Conf != "":
		return fmt.Sprintf("pids() { live $(pgrep -f -- %s); }\n", remote.Quote(bracketFirst(s.Conf))) + liveFunc, nil
	}
	return "", fmt.Errorf("service %q has neither a pid file nor a conf to find its processes by", s.Name)
}

// liveFunc is the shell function live, which prints those of its
// arguments that are processes and not zombies (a killed process its
// parent has not reaped yet is gone for a fault).
const liveFunc = `live() { for p in "$@"; do case "$(ps -o stat= -p "$p" 2>/dev/null)" in ""|Z*) ;; *) echo "$p";; esac; done; }
`

// bracketFirst returns a regular expression that matches s literally, its
// first character in brackets, every regexp metacharacter escaped.
func bracketFirst(s string) string {
	out := ""
	for i, r := range s {
		c := string(r)
		switch {
		case i == 0 && r == '\\':
			c = `[\\]`
		case i == 0:
			c = "[" + c + "]"
		case r == '.' || r == '*' || r == '+' || r == '?' || r == '(' || r == ')' || r == '[' || r == ']' || r == '{' || r == '}' || r == '|' || r == '^' || r == '$' || r == '\\':
			c = `\` + c
		}
		out += c
	}
	return out
}

// needPids is the probe's check that the service runs on the host.
func needPids(kind string, s Service) string {
	return fmt.Sprintf("[ -n \"$(pids)\" ] || { %s; }\n", fail(kind, "no running process of service "+s.Name+" found"))
}

// stop stops the service (its manager, or SIGKILL) and starts it back.
func stop(t Target) (Scripts, error) {
	s, f := t.Service, t.Fault
	pf, err := pidsFunc(s)
	if err != nil {
		return Scripts{}, err
	}
	unit := remote.Quote(s.Unit)
	var sc Scripts
	switch s.Manager {
	case plan.ManagerSystemd:
		sc.Probe = fmt.Sprintf("systemctl is-active --quiet %s || { %s; }\n", unit, fail(f.Kind, "unit "+s.Unit+" is not active"))
		sc.Apply = "systemctl stop " + unit + "\n"
		if f.How == plan.HowKill {
			sc.Apply = "systemctl kill --signal=SIGKILL " + unit + "\n"
		}
		sc.Undo = fmt.Sprintf("systemctl is-active --quiet %[1]s || { systemctl reset-failed %[1]s 2>/dev/null; systemctl start %[1]s; }\n", unit)
		sc.Check = fmt.Sprintf("systemctl is-active --quiet %s || { %s; }\n", unit, fail(f.Kind, "unit "+s.Unit+" is not active"))
		return sc, nil
	case plan.ManagerSwiftInit:
		sc.Probe = pf + needPids(f.Kind, s)
		sc.Apply = "swift-init " + unit + " stop\n"
		if f.How == plan.HowKill {
			sc.Apply = pf + "kill -KILL $(pids) 2>/dev/null\n"
		}
		sc.Undo = pf + fmt.Sprintf("[ -n \"$(pids)\" ] || swift-init %s start\n", unit)
	default:
		if s.Start == "" {
			return Scripts{}, fmt.Errorf("service %q is started directly and the sweep gave no start script for the undo", s.Name)
		}
		sc.Probe = pf + needPids(f.Kind, s)
		sc.Apply = pf + "kill -KILL $(pids) 2>/dev/null\n"
		sc.Undo = pf + fmt.Sprintf("[ -n \"$(pids)\" ] || { %s\n}\n", s.Start)
	}
	sc.Check = pf + fmt.Sprintf("[ -n \"$(pids)\" ] || { %s; }\n", fail(f.Kind, "service "+s.Name+" is not running"))
	return sc, nil
}

// pause freezes the service's processes (SIGSTOP, or the freezer) and
// resumes them.
func pause(t Target) (Scripts, error) {
	s, f := t.Service, t.Fault
	pf, err := pidsFunc(s)
	if err != nil {
		return Scripts{}, err
	}
	unit := remote.Quote(s.Unit)
	stopped := pf + fmt.Sprintf(`left=""
for p in $(pids); do
  case "$(ps -o stat= -p "$p" 2>/dev/null)" in T*) left="$left $p";; esac
done
[ -z "$left" ] || { %s; }
`, fail(f.Kind, "processes of "+s.Name+" still stopped:$left"))
	if f.How == plan.HowFreezer {
		return freezer(t, pf, stopped)
	}
	sc := Scripts{Probe: pf + needPids(f.Kind, s), Check: stopped}
	if s.Manager == plan.ManagerSystemd {
		sc.Probe = fmt.Sprintf("systemctl is-active --quiet %s || { %s; }\n", unit, fail(f.Kind, "unit "+s.Unit+" is not active"))
		sc.Apply = "systemctl kill --signal=SIGSTOP " + unit + "\n"
		sc.Undo = "systemctl kill --signal=SIGCONT " + unit + " 2>/dev/null\n" + pf + "kill -CONT $(pids) 2>/dev/null\ntrue\n"
		return sc, nil
	}
	sc.Apply = pf + "kill -STOP $(pids)\n"
	sc.Undo = pf + "kill -CONT $(pids) 2>/dev/null\ntrue\n"
	return sc, nil
}

// freezer pauses through the cgroup freezer: systemctl freeze/thaw on a
// systemd host, else the processes moved into a frozen cgroup of their own.
func freezer(t Target, pf, stopped string) (Scripts, error) {
	s, f := t.Service, t.Fault
	unit := remote.Quote(s.Unit)
	if s.Manager == plan.ManagerSystemd {
		return Scripts{
			Probe: fmt.Sprintf("systemctl is-active --quiet %s || { %s; }\n", unit, fail(f.Kind, "unit "+s.Unit+" is not active")),
			Apply: "systemctl freeze " + unit + "\n",
			Undo:  "systemctl thaw " + unit + " 2>/dev/null; true\n",
			Check: fmt.Sprintf("[ \"$(systemctl show -p FreezerState --value %s)\" != frozen ] || { %s; }\n", unit, fail(f.Kind, "unit "+s.Unit+" is frozen")),
		}, nil
	}
	g := cgroupFreezer
	return Scripts{
		Probe: pf + needPids(f.Kind, s) + g.probe(f.Kind),
		Apply: pf + g.create() + g.move(),
		Undo:  pf + g.undo(),
		Check: g.check(f.Kind) + stopped,
	}, nil
}
