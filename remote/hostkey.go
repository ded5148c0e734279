package remote

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Host key errors, for errors.Is on a *HostKeyError.
var (
	ErrUnknownHostKey = errors.New("host key unknown")
	ErrChangedHostKey = errors.New("host key changed")
)

// HostKeyError is a host key that known_hosts does not vouch for.
type HostKeyError struct {
	Host        string   // Config.Name (or "name via jump")
	Address     string   // host:port as looked up in known_hosts
	Fingerprint string   // SHA256 fingerprint the host presented
	Changed     bool     // known_hosts holds other keys for this host
	Known       []string // "file:line" of the recorded keys, when Changed
	Files       []string // the known_hosts files consulted
}

// Error says what happened and what to do about it.
func (e *HostKeyError) Error() string {
	host, port, _ := net.SplitHostPort(e.Address)
	if e.Changed {
		return fmt.Sprintf("%s: HOST KEY CHANGED for %s: it presented %s, but %s records another key; "+
			"refusing to connect (possible man-in-the-middle). If the host was reinstalled, remove the old key with "+
			"\"ssh-keygen -R %s -f FILE\" and connect again", e.Host, e.Address, e.Fingerprint,
			strings.Join(e.Known, ", "), knownhosts.Normalize(e.Address))
	}
	file := "~/.ssh/known_hosts"
	if len(e.Files) > 0 {
		file = e.Files[0]
	}
	return fmt.Sprintf("%s: host key of %s is unknown (%s, not in %s); check the fingerprint, then accept it "+
		"with --accept-new-host-keys or \"ssh-keyscan -p %s %s >> %s\"", e.Host, e.Address, e.Fingerprint,
		strings.Join(e.Files, ", "), port, host, file)
}

// Is matches ErrUnknownHostKey or ErrChangedHostKey.
func (e *HostKeyError) Is(target error) bool {
	return (target == ErrUnknownHostKey && !e.Changed) || (target == ErrChangedHostKey && e.Changed)
}

// knownHostsMu serialises appends to known_hosts files across goroutines.
var knownHostsMu sync.Mutex

// hostKeys is the known_hosts check for one endpoint.
type hostKeys struct {
	ep         *endpoint
	check      ssh.HostKeyCallback
	algorithms []string // host key algorithms of recorded keys (nil = any)
}

// newHostKeys reads ep's known_hosts files (missing ones count as empty).
func newHostKeys(ep *endpoint) (*hostKeys, error) {
	var files []string
	for _, f := range ep.knownHosts {
		if _, err := os.Stat(f); err == nil {
			files = append(files, f)
		}
	}
	cb, err := knownhosts.New(files...)
	if err != nil {
		return nil, fmt.Errorf("%s: known_hosts: %w", ep.name, err)
	}
	hk := &hostKeys{ep: ep, check: cb}
	hk.algorithms = recordedAlgorithms(cb, ep.addr())
	return hk, nil
}

// recordedAlgorithms asks the callback which keys it holds for addr, so the
// handshake negotiates a key type that can be checked (otherwise a host with
// a recorded ed25519 key offering RSA first would look changed).
func recordedAlgorithms(cb ssh.HostKeyCallback, addr string) []string {
	probe := &net.TCPAddr{IP: net.IPv4(0, 0, 0, 0)}
	err := cb(addr, probe, probeKey{})
	var ke *knownhosts.KeyError
	if !errors.As(err, &ke) {
		return nil
	}
	var algs []string
	for _, k := range ke.Want {
		switch t := k.Key.Type(); t {
		case ssh.KeyAlgoRSA:
			algs = append(algs, ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA)
		default:
			algs = append(algs, t)
		}
	}
	return algs
}

// callback is the ssh.HostKeyCallback for the handshake.
func (hk *hostKeys) callback(hostname string, remote net.Addr, key ssh.PublicKey) error {
	err := hk.check(hostname, remote, key)
	var ke *knownhosts.KeyError
	var re *knownhosts.RevokedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		return fmt.Errorf("%s: host key of %s is revoked in %s", hk.ep.name, hostname, re.Revoked.Filename)
	case !errors.As(err, &ke):
		return fmt.Errorf("%s: host key check: %w", hk.ep.name, err)
	case len(ke.Want) == 0 && hk.ep.acceptNew:
		hk.ep.recorded.Store(true)
		return recordHostKey(hk.ep.knownHosts[0], hostname, key)
	}
	e := &HostKeyError{Host: hk.ep.name, Address: hostname, Fingerprint: ssh.FingerprintSHA256(key),
		Changed: len(ke.Want) > 0, Files: hk.ep.knownHosts}
	for _, k := range ke.Want {
		e.Known = append(e.Known, k.Filename+":"+strconv.Itoa(k.Line))
	}
	return e
}

// recordHostKey appends a known_hosts line, as OpenSSH's accept-new does.
func recordHostKey(file, hostname string, key ssh.PublicKey) error {
	knownHostsMu.Lock()
	defer knownHostsMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("recording host key: %w", err)
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("recording host key: %w", err)
	}
	line := knownhosts.Line([]string{knownhosts.Normalize(hostname)}, key) + "\n"
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return fmt.Errorf("recording host key in %s: %w", file, err)
	}
	return f.Close()
}

// probeKey is a key that matches nothing, used to list recorded keys.
type probeKey struct{}

func (probeKey) Type() string                        { return "benchbed-probe" }
func (probeKey) Marshal() []byte                     { return []byte("benchbed-probe") }
func (probeKey) Verify([]byte, *ssh.Signature) error { return errors.New("probe key") }
