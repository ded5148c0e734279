package remote

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

const sshdPath = "/usr/sbin/sshd"

// needSSHD skips the test, loudly, unless a real OpenSSH sshd can be run.
func needSSHD(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIPPED: real-sshd test in -short mode")
	}
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: real-sshd tests need root (sshd privilege separation); run as root, as CI does")
	}
	if _, err := os.Stat(sshdPath); err != nil {
		t.Skip("SKIPPED: real-sshd tests need " + sshdPath + " (Debian package openssh-server)")
	}
}

// sshd is a real OpenSSH daemon started by a test on a 127.0.0.x address.
type sshd struct {
	ip       string
	port     int
	hostKeys []ssh.Signer
	dir      string
}

func (d *sshd) addr() string { return net.JoinHostPort(d.ip, strconv.Itoa(d.port)) }

// startSSHD runs sshd on ip with the given host keys (a new ed25519 one
// when none), trusting the client keys; extra is appended to sshd_config.
func startSSHD(t *testing.T, ip string, clients []ssh.PublicKey, hostKeys []crypto.Signer, extra string) *sshd {
	t.Helper()
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatal(err)
	}
	d := &sshd{ip: ip, dir: t.TempDir()}
	if len(hostKeys) == 0 {
		_, k, _ := ed25519.GenerateKey(rand.Reader)
		hostKeys = []crypto.Signer{k}
	}
	var conf strings.Builder
	for i, k := range hostKeys {
		blk, err := ssh.MarshalPrivateKey(k, "")
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d.dir, fmt.Sprintf("host_key_%d", i))
		writeFile(t, p, pem.EncodeToMemory(blk), 0o600)
		s, _ := ssh.NewSignerFromSigner(k)
		d.hostKeys = append(d.hostKeys, s)
		fmt.Fprintf(&conf, "HostKey %s\n", p)
	}
	var auth strings.Builder
	for _, k := range clients {
		auth.Write(ssh.MarshalAuthorizedKey(k))
	}
	writeFile(t, filepath.Join(d.dir, "authorized_keys"), []byte(auth.String()), 0o600)
	fmt.Fprintf(&conf, "PidFile %s/sshd.pid\nAuthorizedKeysFile %s/authorized_keys\nStrictModes no\nUsePAM no\n"+
		"PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"+
		"Subsystem sftp /usr/lib/openssh/sftp-server\nLogLevel ERROR\nMaxStartups 200\n%s\n", d.dir, d.dir, extra)
	for attempt := 0; attempt < 5; attempt++ {
		d.port = freePort(t, ip)
		cfg := filepath.Join(d.dir, "sshd_config")
		writeFile(t, cfg, []byte(fmt.Sprintf("ListenAddress %s\n%s", d.addr(), conf.String())), 0o600)
		if d.run(t, cfg) {
			return d
		}
	}
	t.Fatalf("sshd did not start on %s", ip)
	return nil
}

// run starts sshd and waits until it accepts connections; false when it
// exited first (the port was taken meanwhile).
func (d *sshd) run(t *testing.T, cfg string) bool {
	cmd := exec.Command(sshdPath, "-D", "-e", "-f", cfg)
	var log strings.Builder
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	for {
		select {
		case <-exited:
			t.Logf("sshd on %s exited: %s", d.addr(), log.String())
			return false
		case <-time.After(20 * time.Millisecond):
		}
		if c, err := net.Dial("tcp", d.addr()); err == nil {
			c.Close()
			t.Cleanup(func() { cmd.Process.Kill(); <-exited })
			return true
		}
	}
}

func freePort(t *testing.T, ip string) int {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatalf("cannot listen on %s (is 127.0.0.0/8 on lo?): %v", ip, err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// trustSSHD records every host key of d in the client's known_hosts.
func (tc *testClient) trustSSHD(t *testing.T, d *sshd) {
	for _, k := range d.hostKeys {
		tc.trust(t, d.addr(), k.PublicKey())
	}
}

// sshdConfig is a Config to log in to d as root.
func (tc *testClient) sshdConfig(name string, d *sshd) Config {
	return Config{Name: name, Address: d.ip, Port: d.port, User: "root", IdentityFiles: []string{tc.key},
		KnownHosts: []string{tc.knownHosts}, SSHConfigFile: "none"}
}

func rsaKey(t *testing.T) crypto.Signer {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
