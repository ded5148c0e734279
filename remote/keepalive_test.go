package remote

import (
	"context"
	"crypto/ed25519"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// TestAgentSignsForEncryptedKey: an encrypted identity file is fine when
// the ssh-agent holds its key.
func TestAgentSignsForEncryptedKey(t *testing.T) {
	tc := newTestClient(t)
	priv, locked := lockedKey(t, tc.dir)
	signer, _ := ssh.NewSignerFromKey(priv)
	s := newTestServer(t, signer.PublicKey())
	tc.trust(t, s.ln.Addr().String(), s.hostKey.PublicKey())

	keyring := agent.NewKeyring()
	if err := keyring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { agent.ServeAgent(keyring, c); c.Close() }()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)
	cfg := tc.config("agent", s)
	cfg.IdentityFiles = []string{locked}
	if err := onePool(t, cfg).Connect(context.Background(), "agent"); err != nil {
		t.Fatalf("with the key in the agent: %v", err)
	}
}

// lockedKey copies testdata/id_locked, a test-only ed25519 key protected
// by the passphrase "secret", into dir and returns its private key (for the
// agent) and path.
func lockedKey(t *testing.T, dir string) (ed25519.PrivateKey, string) {
	t.Helper()
	b, err := os.ReadFile("testdata/id_locked")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := ssh.ParseRawPrivateKeyWithPassphrase(b, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "id_locked")
	writeFile(t, path, b, 0o600)
	return *raw.(*ed25519.PrivateKey), path
}

// freezeProxy forwards TCP to target and can stop forwarding, like a
// network that silently drops everything.
type freezeProxy struct {
	ln       net.Listener
	frozen   atomic.Bool
	accepted atomic.Int32
}

func newFreezeProxy(t *testing.T, target string) *freezeProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fp := &freezeProxy{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fp.accepted.Add(1)
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go fp.pipe(c, u)
			go fp.pipe(u, c)
		}
	}()
	return fp
}

func (fp *freezeProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		for fp.frozen.Load() {
			time.Sleep(5 * time.Millisecond)
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				src.Close()
			}
			return
		}
	}
}

// TestKeepAliveDropsDeadConnectionAndRedials: when the peer stops
// answering, keepalives close the connection; the next use dials again.
// Whether a keepalive was answered in time is scripted (frozenPing), so
// that a loaded machine's slow answers on the live connection (three of
// more than 30 ms in a row) cannot drop it too and make a third dial;
// pingOnce's own verdict on a frozen peer is TestPingOnceFrozenPeer's.
func TestKeepAliveDropsDeadConnectionAndRedials(t *testing.T) {
	tc := newTestClient(t)
	s := newTestServer(t, tc.pub)
	fp := newFreezeProxy(t, s.ln.Addr().String())
	tc.trust(t, fp.ln.Addr().String(), s.hostKey.PublicKey())
	cfg := Config{Name: "flaky", Address: "127.0.0.1", Port: fp.ln.Addr().(*net.TCPAddr).Port, User: "tester",
		IdentityFiles: []string{tc.key}, KnownHosts: []string{tc.knownHosts}, SSHConfigFile: "none",
		KeepAlive: 30 * time.Millisecond}
	p := onePool(t, cfg)
	p.ping = fp.ping
	ctx := context.Background()
	if _, err := p.Run(ctx, "flaky", "true"); err != nil {
		t.Fatal(err)
	}
	hc := p.conns["host flaky"]
	fp.frozen.Store(true)
	waitFor(t, "keepalives to close the silent connection", func() bool {
		select {
		case <-hc.closed:
			return true
		default:
			return false
		}
	})
	fp.frozen.Store(false)
	if _, err := p.Run(ctx, "flaky", "true"); err != nil {
		t.Fatalf("after the connection died: %v", err)
	}
	if n := fp.accepted.Load(); n != 2 {
		t.Fatalf("%d connections, want 2 (one redial)", n)
	}
}

// ping is a keepalive through the proxy whose verdict does not hang on
// time: unanswered while the proxy is frozen (then or once it freezes),
// answered whenever the answer comes otherwise.
func (fp *freezeProxy) ping(c *ssh.Client, _ time.Duration) bool {
	reply := make(chan error, 1)
	go func() { _, _, err := c.SendRequest("keepalive@openssh.com", true, nil); reply <- err }()
	for {
		if fp.frozen.Load() {
			return false
		}
		select {
		case err := <-reply:
			return err == nil
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestPingOnceFrozenPeer: a keepalive to a peer that stopped answering is
// unanswered (the direction that holds at any load: a frozen proxy passes
// nothing on), and one to a live peer is answered when given the time.
func TestPingOnceFrozenPeer(t *testing.T) {
	tc := newTestClient(t)
	s := newTestServer(t, tc.pub)
	fp := newFreezeProxy(t, s.ln.Addr().String())
	tc.trust(t, fp.ln.Addr().String(), s.hostKey.PublicKey())
	cfg := Config{Name: "frozen", Address: "127.0.0.1", Port: fp.ln.Addr().(*net.TCPAddr).Port, User: "tester",
		IdentityFiles: []string{tc.key}, KnownHosts: []string{tc.knownHosts}, SSHConfigFile: "none", KeepAlive: -1}
	p := onePool(t, cfg)
	hc, err := p.conn(context.Background(), "frozen")
	if err != nil {
		t.Fatal(err)
	}
	if !pingOnce(hc.client, time.Minute) {
		t.Fatal("a live peer's keepalive went unanswered for a minute")
	}
	fp.frozen.Store(true)
	defer fp.frozen.Store(false)
	if pingOnce(hc.client, 50*time.Millisecond) {
		t.Error("a frozen peer answered a keepalive")
	}
}
