package remote

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kevinburke/ssh_config"
)

// sshConfig is a parsed ssh_config file, or none.
type sshConfig struct {
	file string
	cfg  *ssh_config.Config // nil: no file
}

// loadSSHConfig reads path ("" = ~/.ssh/config when present, "none" = none).
func loadSSHConfig(path string) (*sshConfig, error) {
	if path == "none" {
		return &sshConfig{}, nil
	}
	explicit := path != ""
	if !explicit {
		path = filepath.Join(homeDir(), ".ssh", "config")
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return &sshConfig{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ssh config: %w", err)
	}
	defer f.Close()
	cfg, err := ssh_config.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("ssh config %s: %w", path, err)
	}
	return &sshConfig{file: path, cfg: cfg}, nil
}

// get is the first value of key for alias, "" when unset.
func (s *sshConfig) get(alias, key string) string {
	if s.cfg == nil {
		return ""
	}
	v, err := s.cfg.Get(alias, key)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(v)
}

func (s *sshConfig) getAll(alias, key string) []string {
	if s.cfg == nil {
		return nil
	}
	v, _ := s.cfg.GetAll(alias, key)
	return v
}

// endpoint resolves HostName, User, Port and IdentityFile for alias; user and
// port, when set, win over the file.
func (s *sshConfig) endpoint(alias, user string, port int) (*endpoint, error) {
	ep := &endpoint{host: alias, user: user, port: port}
	if hn := s.get(alias, "HostName"); hn != "" {
		ep.host = strings.ReplaceAll(hn, "%h", alias)
	}
	if ep.user == "" {
		ep.user = s.get(alias, "User")
	}
	if ep.user == "" {
		ep.user = localUser()
	}
	if ep.port == 0 {
		if v := s.get(alias, "Port"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 || n > 65535 {
				return nil, fmt.Errorf("ssh config %s: Host %s: bad Port %q", s.file, alias, v)
			}
			ep.port = n
		}
	}
	if ep.port == 0 {
		ep.port = 22
	}
	if ep.port < 0 || ep.port > 65535 {
		return nil, fmt.Errorf("bad port %d", ep.port)
	}
	for _, id := range s.getAll(alias, "IdentityFile") {
		ep.identities = append(ep.identities, expandPath(id, ep))
		ep.explicit = true
	}
	return ep, nil
}

// jumps parses a ProxyJump value into hops; each hop is resolved through
// ssh_config (HostName, User, Port, IdentityFile; not its own ProxyJump) and
// inherits the target's known_hosts, timeouts and, when ssh_config names
// none for it, its identity files.
func (s *sshConfig) jumps(spec string, target *endpoint) ([]*endpoint, error) {
	if spec == "" || spec == "none" {
		return nil, nil
	}
	var out []*endpoint
	for _, hop := range strings.Split(spec, ",") {
		user, host, port, err := parseHop(strings.TrimSpace(hop))
		if err != nil {
			return nil, err
		}
		ep, err := s.endpoint(host, user, port)
		if err != nil {
			return nil, err
		}
		ep.name = target.name + " via " + host
		ep.knownHosts, ep.acceptNew = target.knownHosts, target.acceptNew
		ep.timeout, ep.keepAlive, ep.retries = target.timeout, target.keepAlive, target.retries
		if len(ep.identities) == 0 {
			ep.identities, ep.explicit = target.identities, target.explicit
		}
		out = append(out, ep)
	}
	return out, nil
}

// parseHop splits "[ssh://][user@]host[:port]".
func parseHop(h string) (user, host string, port int, err error) {
	h = strings.TrimPrefix(h, "ssh://")
	if i := strings.LastIndex(h, "@"); i >= 0 {
		user, h = h[:i], h[i+1:]
	}
	host = h
	if hp, ps, e := net.SplitHostPort(h); e == nil {
		host = hp
		if port, err = strconv.Atoi(ps); err != nil || port <= 0 || port > 65535 {
			return "", "", 0, fmt.Errorf("bad port in %q", h)
		}
	}
	if host == "" || strings.ContainsAny(host, " /") {
		return "", "", 0, fmt.Errorf("bad jump host %q", h)
	}
	return user, host, port, nil
}
