package remote

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// testServer is an in-process SSH server on 127.0.0.1:0: exec runs the
// command with the local /bin/sh (stdin closed when the channel sends EOF,
// as sshd does), "sftp" serves an in-memory filesystem, and direct-tcpip
// forwards (so it can be a jump host).
type testServer struct {
	t        *testing.T
	ln       net.Listener
	hostKey  ssh.Signer
	clientFS sftp.Handlers
	realFS   bool     // serve SFTP on this machine's filesystem instead of clientFS (set by useRealFS)
	env      []string // extra environment of exec'd commands
	mu       sync.Mutex
	sessions int // exec and subsystem requests served
	accepted int // TCP connections accepted
}

func newTestServer(t *testing.T, authorized ssh.PublicKey) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &testServer{t: t, ln: ln, hostKey: newSigner(t), clientFS: sftp.InMemHandler()}
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
		if authorized != nil && string(k.Marshal()) == string(authorized.Marshal()) {
			return nil, nil
		}
		return nil, errors.New("not authorized")
	}}
	cfg.AddHostKey(s.hostKey)
	go s.serve(cfg)
	t.Cleanup(func() { ln.Close() })
	return s
}

func newSigner(t *testing.T) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *testServer) counts() (accepted, sessions int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accepted, s.sessions
}

func (s *testServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *testServer) serve(cfg *ssh.ServerConfig) {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.accepted++
		s.mu.Unlock()
		go func() {
			sc, chans, reqs, err := ssh.NewServerConn(c, cfg)
			if err != nil {
				c.Close()
				return
			}
			defer sc.Close()
			go ssh.DiscardRequests(reqs)
			for nc := range chans {
				go s.channel(nc)
			}
		}()
	}
}

func (s *testServer) channel(nc ssh.NewChannel) {
	switch nc.ChannelType() {
	case "session":
		ch, reqs, err := nc.Accept()
		if err != nil {
			return
		}
		s.session(ch, reqs)
	case "direct-tcpip":
		s.forward(nc)
	default:
		nc.Reject(ssh.UnknownChannelType, "no")
	}
}

func (s *testServer) session(ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	for r := range reqs {
		switch r.Type {
		case "exec":
			cmd := string(r.Payload[4:])
			r.Reply(true, nil)
			s.count()
			ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, uint32(s.exec(ch, cmd))))
			return
		case "subsystem":
			r.Reply(string(r.Payload[4:]) == "sftp", nil)
			s.count()
			s.mu.Lock()
			real := s.realFS
			s.mu.Unlock()
			if real {
				if srv, err := sftp.NewServer(ch); err == nil {
					srv.Serve()
				}
				return
			}
			srv := sftp.NewRequestServer(ch, s.clientFS)
			srv.Serve()
			return
		default:
			r.Reply(false, nil)
		}
	}
}

// useRealFS makes the server's SFTP subsystem serve the local filesystem
// (owners, modes and symlinks real), as sshd's sftp-server does.
func (s *testServer) useRealFS() {
	s.mu.Lock()
	s.realFS = true
	s.mu.Unlock()
}

func (s *testServer) count() {
	s.mu.Lock()
	s.sessions++
	s.mu.Unlock()
}

func (s *testServer) exec(ch ssh.Channel, line string) int {
	c := exec.Command("/bin/sh", "-c", line)
	c.Env = append(os.Environ(), s.env...)
	c.Stdout, c.Stderr = ch, ch.Stderr()
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // like sshd's session child
	stdin, err := c.StdinPipe()
	if err != nil {
		return 255
	}
	if err := c.Start(); err != nil {
		return 127
	}
	go func() { io.Copy(stdin, ch); stdin.Close() }()
	err = c.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return 0
}

// forward serves a direct-tcpip channel (RFC 4254 7.2).
func (s *testServer) forward(nc ssh.NewChannel) {
	var p struct {
		Host     string
		Port     uint32
		OrigHost string
		OrigPort uint32
	}
	if err := ssh.Unmarshal(nc.ExtraData(), &p); err != nil {
		nc.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	c, err := net.Dial("tcp", net.JoinHostPort(p.Host, strconv.Itoa(int(p.Port))))
	if err != nil {
		nc.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	ch, reqs, err := nc.Accept()
	if err != nil {
		c.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	go func() { io.Copy(ch, c); ch.CloseWrite() }()
	io.Copy(c, ch)
	c.Close()
}

// testClient is a client key on disk and a known_hosts file for servers.
type testClient struct {
	dir, key, knownHosts string
	pub                  ssh.PublicKey
}

func newTestClient(t *testing.T) *testClient {
	t.Helper()
	dir := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	blk, err := ssh.MarshalPrivateKey(priv, "test")
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(dir, "id_ed25519")
	writeFile(t, key, pem.EncodeToMemory(blk), 0o600)
	s, _ := ssh.NewSignerFromKey(priv)
	return &testClient{dir: dir, key: key, knownHosts: filepath.Join(dir, "known_hosts"), pub: s.PublicKey()}
}

// trust records the server's host key under addr in the client's known_hosts.
func (tc *testClient) trust(t *testing.T, addr string, key ssh.PublicKey) {
	t.Helper()
	f, err := os.OpenFile(tc.knownHosts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(knownhosts.Line([]string{knownhosts.Normalize(addr)}, key) + "\n")
}

// config is a Config for the in-process server s.
func (tc *testClient) config(name string, s *testServer) Config {
	return Config{Name: name, Address: "127.0.0.1", Port: s.port(), User: "tester",
		IdentityFiles: []string{tc.key}, KnownHosts: []string{tc.knownHosts}, SSHConfigFile: "none"}
}

func writeFile(t *testing.T, p string, b []byte, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, b, mode); err != nil {
		t.Fatal(err)
	}
}
