package remote

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

func onePool(t *testing.T, c Config) *Pool {
	t.Helper()
	p, err := NewPool([]Config{c})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestHandshakeTimeout: a server that accepts TCP and never speaks SSH.
func TestHandshakeTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			defer c.Close() // held open, silent, until the test ends
		}
	}()
	tc := newTestClient(t)
	cfg := Config{Name: "mute", Address: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, IdentityFiles: []string{tc.key},
		KnownHosts: []string{tc.knownHosts}, SSHConfigFile: "none", ConnectTimeout: 200 * time.Millisecond, Retries: 1}
	err = onePool(t, cfg).Connect(context.Background(), "mute")
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "SSH handshake") || !strings.Contains(err.Error(), "mute") {
		t.Fatalf("err = %v, want a handshake timeout naming the host", err)
	}
	// The dials reached the kernel's backlog; the goroutine that counts
	// them may run later on a loaded machine than the timeouts end.
	waitFor(t, "the listener to accept both dials", func() bool { return accepted.Load() >= 2 })
	if n := accepted.Load(); n != 2 {
		t.Fatalf("%d connections, want 2 (the handshake is retried once)", n)
	}
}

func TestConnectRefusedIsRetriedThenReported(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	tc := newTestClient(t)
	cfg := Config{Name: "gone", Address: "127.0.0.1", Port: port, IdentityFiles: []string{tc.key},
		KnownHosts: []string{tc.knownHosts}, SSHConfigFile: "none", Retries: 1}
	err := onePool(t, cfg).Connect(context.Background(), "gone")
	if err == nil || !strings.Contains(err.Error(), "connect") || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnknownHostKeyAndAcceptNew(t *testing.T) {
	tc := newTestClient(t)
	s := newTestServer(t, tc.pub)
	err := onePool(t, tc.config("new", s)).Connect(context.Background(), "new")
	var hke *HostKeyError
	if !errors.Is(err, ErrUnknownHostKey) || !errors.As(err, &hke) || hke.Changed {
		t.Fatalf("err = %v, want an unknown host key", err)
	}
	for _, want := range []string{"--accept-new-host-keys", "ssh-keyscan -p " + strconv.Itoa(s.port()), ssh.FingerprintSHA256(s.hostKey.PublicKey())} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("message %q lacks %q", err, want)
		}
	}
	if acc, _ := s.counts(); acc != 1 {
		t.Fatalf("%d connections: a host key error must not be retried", acc)
	}
	cfg := tc.config("new", s)
	cfg.AcceptNewHostKeys = true
	if err := onePool(t, cfg).Connect(context.Background(), "new"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(tc.knownHosts)
	if !strings.Contains(string(b), "[127.0.0.1]:"+strconv.Itoa(s.port())+" ssh-ed25519 ") {
		t.Fatalf("known_hosts = %q", b)
	}
	if err := onePool(t, tc.config("new", s)).Connect(context.Background(), "new"); err != nil {
		t.Fatalf("recorded key not trusted afterwards: %v", err)
	}
}

func TestChangedHostKeyIsAlwaysRefused(t *testing.T) {
	tc := newTestClient(t)
	s := newTestServer(t, tc.pub)
	tc.trust(t, s.ln.Addr().String(), newSigner(t).PublicKey()) // another key on record
	cfg := tc.config("moved", s)
	cfg.AcceptNewHostKeys = true
	err := onePool(t, cfg).Connect(context.Background(), "moved")
	if !errors.Is(err, ErrChangedHostKey) || !strings.Contains(err.Error(), "HOST KEY CHANGED") ||
		!strings.Contains(err.Error(), tc.knownHosts+":1") {
		t.Fatalf("err = %v, want a changed host key naming %s:1", err, tc.knownHosts)
	}
	if _, sess := s.counts(); sess != 0 {
		t.Fatal("a session ran on a host with a changed key")
	}
}

func TestFailedAuthentication(t *testing.T) {
	tc := newTestClient(t)
	s := newTestServer(t, newSigner(t).PublicKey()) // authorizes someone else
	tc.trust(t, s.ln.Addr().String(), s.hostKey.PublicKey())
	err := onePool(t, tc.config("locked", s)).Connect(context.Background(), "locked")
	if err == nil || !strings.Contains(err.Error(), "authentication failed") || !strings.Contains(err.Error(), "tester@127.0.0.1") {
		t.Fatalf("err = %v", err)
	}
	if acc, _ := s.counts(); acc != 1 {
		t.Fatalf("%d connections: failed authentication must not be retried", acc)
	}
}

func TestEncryptedKeyWithoutAgent(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "")
	tc := newTestClient(t)
	s := newTestServer(t, tc.pub)
	tc.trust(t, s.ln.Addr().String(), s.hostKey.PublicKey())
	_, locked := lockedKey(t, tc.dir)
	cfg := tc.config("enc", s)
	cfg.IdentityFiles = []string{locked}
	err := onePool(t, cfg).Connect(context.Background(), "enc")
	if !errors.Is(err, ErrEncryptedKey) || !strings.Contains(err.Error(), "ssh-add "+locked) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Fatal("the passphrase leaked into the error")
	}
}

func TestJumpHost(t *testing.T) {
	tc := newTestClient(t)
	jump, target := newTestServer(t, tc.pub), newTestServer(t, tc.pub)
	tc.trust(t, jump.ln.Addr().String(), jump.hostKey.PublicKey())
	tc.trust(t, target.ln.Addr().String(), target.hostKey.PublicKey())
	cfg := tc.config("inner", target)
	cfg.ProxyJump = "tester@127.0.0.1:" + strconv.Itoa(jump.port())
	p := onePool(t, cfg)
	if _, err := p.Run(context.Background(), "inner", "true"); err != nil {
		t.Fatal(err)
	}
	if acc, sess := jump.counts(); acc != 1 || sess != 0 {
		t.Fatalf("jump: %d connections, %d sessions; want 1 and 0", acc, sess)
	}
	if _, sess := target.counts(); sess != 1 {
		t.Fatalf("target ran %d sessions", sess)
	}
}

func TestSSHConfigResolution(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	writeFile(t, conf, []byte(`Host stor*
  HostName 10.0.0.%h
  User swift
  Port 2222
  IdentityFile ~/.ssh/lab_key
  ProxyJump admin@bastion:2200

Host bastion
  HostName 192.0.2.1
  IdentityFile /keys/bastion
`), 0o600)
	ep, err := Config{Name: "stor1", SSHConfigFile: conf}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if ep.host != "10.0.0.stor1" || ep.user != "swift" || ep.port != 2222 ||
		ep.identities[0] != filepath.Join(homeDir(), ".ssh/lab_key") || !ep.explicit {
		t.Fatalf("from ssh_config: %+v", ep)
	}
	if j := ep.jumps; len(j) != 1 || j[0].host != "192.0.2.1" || j[0].user != "admin" || j[0].port != 2200 || j[0].identities[0] != "/keys/bastion" {
		t.Fatalf("jump: %+v", ep.jumps)
	}
	ep, err = Config{Name: "stor1", Address: "127.0.0.5", User: "root", Port: 22, IdentityFiles: []string{"/k"},
		ProxyJump: "none", SSHConfigFile: conf}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if ep.host != "127.0.0.5" || ep.user != "root" || ep.port != 22 || ep.identities[0] != "/k" || ep.jumps != nil {
		t.Fatalf("testbed settings must win: %+v", ep)
	}
	if _, err := (Config{Name: "x", SSHConfigFile: filepath.Join(dir, "nope")}).resolve(); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("missing ssh config: %v", err)
	}
	if _, err := (Config{Name: "x", ProxyJump: "a@b:99999", SSHConfigFile: "none"}).resolve(); err == nil || !strings.Contains(err.Error(), "x: ProxyJump") {
		t.Fatalf("bad jump: %v", err)
	}
}

func TestSSHConfigErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]string{
		"Host a\n  Port abc\n":                     `Host a: bad Port "abc"`,
		"Host a\n  Port 22\nMatch exec \"true\"\n": "(3, 7): ssh_config: Match Exec is not supported",
	} {
		conf := filepath.Join(dir, "config")
		writeFile(t, conf, []byte(body), 0o600)
		_, err := Config{Name: "a", SSHConfigFile: conf}.resolve()
		if err == nil || !strings.Contains(err.Error(), conf) || !strings.Contains(err.Error(), want) {
			t.Fatalf("ssh_config %q: err = %v, want the file and %q", body, err, want)
		}
	}
}

func TestNoKeyAtAll(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("SSH_AUTH_SOCK", "")
	tc := newTestClient(t)
	s := newTestServer(t, tc.pub)
	cfg := tc.config("bare", s)
	cfg.IdentityFiles = nil
	err := onePool(t, cfg).Connect(context.Background(), "bare")
	if err == nil || !strings.Contains(err.Error(), "no SSH key") || !strings.Contains(err.Error(), "SSH_AUTH_SOCK is not set") {
		t.Fatalf("err = %v", err)
	}
	if acc, _ := s.counts(); acc != 0 {
		t.Fatal("dialed without any key")
	}
}
