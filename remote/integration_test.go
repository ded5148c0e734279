package remote

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/crypto/ssh"
)

func sshdPool(t *testing.T, cfgs ...Config) *Pool {
	t.Helper()
	p, err := NewPool(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestSSHDCommandsAndFiles runs against a real sshd: exit codes, become
// through real sudo, files with mode and owner, skip,
// downloads, the binary, and a cancel that leaves no process behind.
func TestSSHDCommandsAndFiles(t *testing.T) {
	needSSHD(t)
	tc := newTestClient(t)
	d := startSSHD(t, "127.0.0.2", []ssh.PublicKey{tc.pub}, nil, "")
	tc.trustSSHD(t, d)
	cfg := tc.sshdConfig("real", d)
	cfg.Become = hasSudo()
	p := sshdPool(t, cfg)
	ctx := context.Background()

	res, err := p.Run(ctx, "real", "id -u; echo oops >&2; exit 7")
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 7 || ee.StderrTail != "oops" || string(res.Stdout) != "0\n" {
		t.Fatalf("run: %+v %v", res, err)
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "proxy-server.conf")
	writeFile(t, conf, []byte("original\n"), 0o600)
	f := File{Path: conf, Content: []byte("[DEFAULT]\nworkers = 4\n"), Mode: 0o640, Owner: "nobody", Group: "nogroup"}
	for i, want := range []Change{Written, Unchanged} {
		if ch, err := p.Upload(ctx, "real", f); err != nil || ch != want {
			t.Fatalf("upload %d: %v %v, want %v", i, ch, err, want)
		}
	}
	fi, err := os.Stat(conf)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if fi.Mode().Perm() != 0o640 || st.Uid != 65534 || st.Gid != 65534 {
		t.Fatalf("mode %v uid %d gid %d, want 0640 nobody:nogroup", fi.Mode(), st.Uid, st.Gid)
	}
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link.conf")
	writeFile(t, target, []byte("kept\n"), 0o600)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Upload(ctx, "real", File{Path: link, Content: []byte("new\n")}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 {
		t.Fatalf("a symlink in the way must become a 0644 file, got %v", fi.Mode())
	}
	if b, _ := os.ReadFile(target); string(b) != "kept\n" {
		t.Fatalf("the symlink's target was written: %q", b)
	}
	local := filepath.Join(t.TempDir(), "copy")
	if _, err := p.Download(ctx, "real", conf, local); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(local); string(b) != "[DEFAULT]\nworkers = 4\n" {
		t.Fatalf("downloaded %q", b)
	}
	exe, _ := os.Executable()
	bin, err := p.UploadBinary(ctx, "real", exe, filepath.Join(dir, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := p.Run(ctx, "real", bin+" -test.list NoSuchTest"); err != nil {
		t.Fatalf("uploaded binary does not run: %v %s", err, out.Stderr)
	}
	testCancelKills(t, p, "real")
}

func hasSudo() bool {
	_, err := os.Stat("/usr/bin/sudo")
	return err == nil
}

// TestSSHDConfigFileAndJumpHost reaches a host by its ssh_config alias
// through a jump host; with forwarding refused on the jump, it cannot.
func TestSSHDConfigFileAndJumpHost(t *testing.T) {
	needSSHD(t)
	tc := newTestClient(t)
	jump := startSSHD(t, "127.0.0.3", []ssh.PublicKey{tc.pub}, nil, "AllowTcpForwarding yes")
	closed := startSSHD(t, "127.0.0.4", []ssh.PublicKey{tc.pub}, nil, "AllowTcpForwarding no")
	target := startSSHD(t, "127.0.0.5", []ssh.PublicKey{tc.pub}, nil, "")
	for _, d := range []*sshd{jump, closed, target} {
		tc.trustSSHD(t, d)
	}
	conf := filepath.Join(tc.dir, "ssh_config")
	writeFile(t, conf, []byte("Host stor1\n  HostName 127.0.0.5\n  Port "+strconv.Itoa(target.port)+
		"\n  User root\n  IdentityFile "+tc.key+"\n  ProxyJump bastion\n"+
		"Host bastion\n  HostName 127.0.0.3\n  Port "+strconv.Itoa(jump.port)+"\n  User root\n"+
		"Host shut\n  HostName 127.0.0.4\n  Port "+strconv.Itoa(closed.port)+"\n  User root\n"), 0o600)
	viaConfig := Config{Name: "stor1", KnownHosts: []string{tc.knownHosts}, SSHConfigFile: conf}
	p := sshdPool(t, viaConfig)
	res, err := p.Run(context.Background(), "stor1", "echo $SSH_CONNECTION")
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(string(res.Stdout)); len(f) != 4 || f[2] != "127.0.0.5" || f[3] != strconv.Itoa(target.port) {
		t.Fatalf("SSH_CONNECTION = %q, want the target", res.Stdout)
	}
	viaConfig.ProxyJump = "shut" // the testbed's setting wins over ssh_config's
	err = sshdPool(t, viaConfig).Connect(context.Background(), "stor1")
	if err == nil || !strings.Contains(err.Error(), "prohibited") {
		t.Fatalf("through a jump host that refuses forwarding: %v", err)
	}
}

// TestSSHDHostKeys: a host with RSA and ed25519 keys whose RSA key alone is
// recorded is accepted (the recorded type is negotiated); accept-new records
// a new host; a host whose key changed is refused.
func TestSSHDHostKeys(t *testing.T) {
	needSSHD(t)
	tc := newTestClient(t)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	both := startSSHD(t, "127.0.0.6", []ssh.PublicKey{tc.pub}, []crypto.Signer{ed, rsaKey(t)}, "")
	tc.trust(t, both.addr(), both.hostKeys[1].PublicKey()) // RSA only
	if err := sshdPool(t, tc.sshdConfig("both", both)).Connect(context.Background(), "both"); err != nil {
		t.Fatalf("RSA key on record: %v", err)
	}
	fresh := startSSHD(t, "127.0.0.7", []ssh.PublicKey{tc.pub}, nil, "")
	cfg := tc.sshdConfig("fresh", fresh)
	if err := sshdPool(t, cfg).Connect(context.Background(), "fresh"); !errors.Is(err, ErrUnknownHostKey) {
		t.Fatalf("unknown host: %v", err)
	}
	cfg.AcceptNewHostKeys = true
	if rep := Preflight(context.Background(), sshdPool(t, cfg), []string{"sh"}); rep.Err() != nil || rep[0].HostKey != "recorded" {
		t.Fatalf("accept-new preflight: %+v", rep)
	}
	moved := startSSHD(t, "127.0.0.8", []ssh.PublicKey{tc.pub}, nil, "")
	tc.trust(t, moved.addr(), fresh.hostKeys[0].PublicKey()) // as if reinstalled with a new key
	cfg = tc.sshdConfig("moved", moved)
	cfg.AcceptNewHostKeys = true
	if err := sshdPool(t, cfg).Connect(context.Background(), "moved"); !errors.Is(err, ErrChangedHostKey) {
		t.Fatalf("changed key: %v", err)
	}
}
