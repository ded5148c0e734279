package importer

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"benchbed/plan"
)

// Server is one Swift server (or background daemon) running on a host.
type Server struct {
	Role    string // "proxy", "object", "container", "account"
	Kind    string // "server", or a daemon's kind: "replicator", "auditor", ...
	Manager string // plan.ManagerSystemd, ManagerSwiftInit or ManagerDirect
	Unit    string // the systemd unit ("" for the others)
	Conf    string // the conf it was started on ("" when not on its command line)
	How     string // how the manager was told, for notes
}

// Name is the program's name without "swift-": "object-server",
// "object-replicator".
func (s Server) Name() string { return s.Role + "-" + s.Kind }

// swiftProgram matches a Swift program: swift-<role>-<kind>.
var swiftProgram = regexp.MustCompile(`^swift-(proxy|object|container|account)-(server|replicator|auditor|updater|reconstructor|sharder|sync|reaper|expirer|reconciler)$`)

// program finds the Swift program of a command line (run directly or
// through python) and the index of its argument.
func program(args []string) (role, kind string, at int) {
	for i, a := range args {
		if i > 1 {
			break
		}
		if m := swiftProgram.FindStringSubmatch(path.Base(a)); m != nil {
			return m[1], m[2], i
		}
	}
	return "", "", -1
}

// Servers returns the host's Swift programs, one per program: its oldest
// process (the one whose parent is not of the same program), with the
// manager that started it.
func (f *Facts) Servers() []Server {
	byPID := map[int]Proc{}
	for _, p := range f.Procs {
		byPID[p.PID] = p
	}
	var out []Server
	seen := map[string]bool{}
	for _, p := range f.Procs {
		role, kind, at := program(p.Args)
		if role == "" || seen[role+"-"+kind] {
			continue
		}
		if parent, ok := byPID[p.PPID]; ok {
			if r, k, _ := program(parent.Args); r == role && k == kind {
				continue // a worker
			}
		}
		seen[role+"-"+kind] = true
		s := Server{Role: role, Kind: kind, Conf: confArg(p.Args[at+1:])}
		s.Manager, s.Unit, s.How = f.manager(p)
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Server) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// confArg is the first argument that names a conf (a path, not a flag).
func confArg(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "/") {
			return a
		}
	}
	return ""
}

// manager says how process p was started: by a systemd service (its
// cgroup), by swift-init (a pid file of its, and swift-init installed,
// and no -v, which benchbed's direct start adds), or directly.
func (f *Facts) manager(p Proc) (manager, unit, how string) {
	if u := strings.TrimSuffix(p.Unit, ".service"); u != p.Unit && !strings.HasPrefix(u, "ssh") && !strings.HasPrefix(u, "user@") {
		return plan.ManagerSystemd, u, "its systemd unit " + p.Unit
	}
	file, ok := f.PidFiles[p.PID]
	if !ok {
		file, ok = f.PidFiles[p.PGID]
	}
	switch {
	case ok && f.SwiftInit && !slices.Contains(p.Args, "-v"):
		return plan.ManagerSwiftInit, "", "swift-init's pid file " + file
	case ok:
		return plan.ManagerDirect, "", "a detached process with pid file " + file
	}
	return plan.ManagerDirect, "", "a plain process (pid " + itoa(p.PID) + ", no unit, no pid file)"
}
