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
func TestKeepAliveDropsDeadConnectionAndRedials(t *testing.T) {
	tc := newTestClient(t)
	s := newTestServer(t, tc.pub)
	fp := newFreezeProxy(t, s.ln.Addr().String())
	tc.trust(t, fp.ln.Addr().String(), s.hostKey.PublicKey())
	cfg := Config{Name: "flaky", Address: "127.0.0.1", Port: fp.ln.Addr().(*net.TCPAddr).Port, User: "tester",
		IdentityFiles: []string{tc.key}, KnownHosts: []string{tc.knownHosts}, SSHConfigFile: "none",
		KeepAlive: 30 * time.Millisecond}
	p := onePool(t, cfg)
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
