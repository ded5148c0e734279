package remote

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Defaults used when a Config field is zero.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultKeepAlive      = 15 * time.Second
	DefaultRetries        = 2
)

// Config says how to reach one host. Set fields take precedence over the
// ssh_config file (as the testbed's ssh block does); zero fields fall back to
// ssh_config and then to OpenSSH's defaults.
type Config struct {
	Name              string        // the host's name in output, errors and results (required, unique)
	Address           string        // host name, IP or ssh_config Host alias to connect to ("" = Name)
	Port              int           // SSH port (0 = ssh_config Port, else 22)
	User              string        // login user ("" = ssh_config User, else the local user)
	IdentityFiles     []string      // private keys (none = ssh_config IdentityFile, else ~/.ssh/id_{ed25519,ecdsa,rsa})
	KnownHosts        []string      // known_hosts files (none = ~/.ssh/known_hosts); new keys go to the first
	AcceptNewHostKeys bool          // record unknown host keys (OpenSSH accept-new); a changed key is always refused
	ProxyJump         string        // jump hosts "[user@]host[:port][,...]" ("" = ssh_config ProxyJump, "none" = direct)
	Become            bool          // run commands and file operations as root through "sudo -n"
	ConnectTimeout    time.Duration // TCP connect, and the SSH handshake, each (0 = 10s)
	KeepAlive         time.Duration // keepalive interval; 3 unanswered in a row close the connection (0 = 15s, <0 = off)
	Retries           int           // extra dial and handshake attempts after the first (0 = 2, <0 = none)
	SSHConfigFile     string        // ssh_config file ("" = ~/.ssh/config when it exists, "none" = none)
}

// endpoint is a Config resolved against ssh_config: everything needed to dial.
type endpoint struct {
	name       string // Config.Name, for messages
	host       string // what to dial
	port       int
	user       string
	identities []string
	explicit   bool // identities were named (not defaults): a missing or locked one is an error
	knownHosts []string
	acceptNew  bool
	jumps      []*endpoint // in dialing order
	become     bool
	timeout    time.Duration
	keepAlive  time.Duration
	retries    int
	recorded   atomic.Bool // a new host key was recorded (accept-new)
}

// addr is host:port as dialed and as checked in known_hosts.
func (e *endpoint) addr() string {
	return joinHostPort(e.host, e.port)
}

func joinHostPort(h string, p int) string {
	if strings.Contains(h, ":") {
		return "[" + h + "]:" + strconv.Itoa(p)
	}
	return h + ":" + strconv.Itoa(p)
}

// resolve applies ssh_config and defaults to c.
func (c Config) resolve() (*endpoint, error) {
	if c.Name == "" {
		return nil, errors.New("remote: a host config has no Name")
	}
	sc, err := loadSSHConfig(c.SSHConfigFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	alias := c.Address
	if alias == "" {
		alias = c.Name
	}
	ep, err := sc.endpoint(alias, c.User, c.Port)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	ep.name = c.Name
	ep.become = c.Become
	ep.acceptNew = c.AcceptNewHostKeys
	ep.timeout = pick(c.ConnectTimeout, DefaultConnectTimeout)
	ep.keepAlive = pick(c.KeepAlive, DefaultKeepAlive)
	ep.retries = c.Retries
	if ep.retries == 0 {
		ep.retries = DefaultRetries
	}
	ep.knownHosts = expandAll(c.KnownHosts, ep)
	if len(ep.knownHosts) == 0 {
		ep.knownHosts = []string{filepath.Join(homeDir(), ".ssh", "known_hosts")}
	}
	if len(c.IdentityFiles) > 0 {
		ep.identities, ep.explicit = expandAll(c.IdentityFiles, ep), true
	}
	if len(ep.identities) == 0 {
		ep.identities = defaultIdentities()
	}
	jump := c.ProxyJump
	if jump == "" {
		jump = sc.get(alias, "ProxyJump")
	}
	if ep.jumps, err = sc.jumps(jump, ep); err != nil {
		return nil, fmt.Errorf("%s: ProxyJump %q: %w", c.Name, jump, err)
	}
	return ep, nil
}

func pick(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

func defaultIdentities() []string {
	var out []string
	for _, n := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
		out = append(out, filepath.Join(homeDir(), ".ssh", n))
	}
	return out
}

func homeDir() string {
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "/"
}

func localUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

func expandAll(paths []string, ep *endpoint) []string {
	var out []string
	for _, p := range paths {
		if p != "" {
			out = append(out, expandPath(p, ep))
		}
	}
	return out
}

// expandPath expands ~ and the ssh_config tokens %d %u %h %r %p %%.
func expandPath(p string, ep *endpoint) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = homeDir() + p[1:]
	}
	if !strings.Contains(p, "%") {
		return p
	}
	r := strings.NewReplacer("%%", "%", "%d", homeDir(), "%u", localUser(),
		"%h", ep.host, "%r", ep.user, "%p", strconv.Itoa(ep.port))
	return r.Replace(p)
}
