package remote

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSudo puts a "sudo" on the servers' PATH: one that runs its command
// (as the test user) or one that wants a password.
func fakeSudo(t *testing.T, s *testServer, works bool) {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\n[ \"$1\" = -n ] && shift; [ \"$1\" = -- ] && shift; VIA_SUDO=yes exec \"$@\"\n"
	if !works {
		script = "#!/bin/sh\necho 'sudo: a password is required' >&2; exit 1\n"
	}
	writeFile(t, filepath.Join(dir, "sudo"), []byte(script), 0o755)
	s.env = []string{"PATH=" + dir + ":" + os.Getenv("PATH")}
}

func becomePool(t *testing.T) *Pool {
	t.Helper()
	tc := newTestClient(t)
	var cfgs []Config
	for i, works := range []bool{true, false} {
		s := newTestServer(t, tc.pub)
		tc.trust(t, s.ln.Addr().String(), s.hostKey.PublicKey())
		fakeSudo(t, s, works)
		c := tc.config([]string{"good", "nosudo"}[i], s)
		c.Become = true
		cfgs = append(cfgs, c)
	}
	p, err := NewPool(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestPreflight(t *testing.T) {
	p := becomePool(t)
	tc := newTestClient(t)
	unknown := newTestServer(t, tc.pub) // host key not trusted
	p.eps["stranger"] = tc.config("stranger", unknown).mustResolve(t)
	p.order = append(p.order, "stranger")

	rep := Preflight(context.Background(), p, []string{"sh", "no-such-cmd-benchbed"})
	good, bad, stranger := rep[0], rep[1], rep[2]
	if !good.Reachable || good.HostKey != "known" || good.Sudo != "ok" || good.SFTP != "ok" ||
		strings.Join(good.Missing, ",") != "no-such-cmd-benchbed" {
		t.Fatalf("good host: %+v", good)
	}
	if !bad.Reachable || bad.Sudo != "fails: sudo: a password is required" || bad.Err == nil {
		t.Fatalf("host without sudo: %+v", bad)
	}
	if stranger.Reachable || stranger.HostKey != "unknown" || stranger.Err == nil {
		t.Fatalf("unknown host: %+v", stranger)
	}
	err := rep.Err()
	if err == nil || !strings.Contains(err.Error(), "3 of 3 hosts failed: good, nosudo, stranger") {
		t.Fatalf("report error = %v", err)
	}
	var buf bytes.Buffer
	if err := rep.Render(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"HOST KEY", "nosudo", "a password is required", "no-such-cmd-benchbed", "unknown"} {
		if !strings.Contains(buf.String(), want) {
			t.Fatalf("table lacks %q:\n%s", want, buf.String())
		}
	}
}

func (c Config) mustResolve(t *testing.T) *endpoint {
	t.Helper()
	ep, err := c.resolve()
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// TestBecomeUsesSudoForCommandsAndFiles runs commands and an SFTP upload
// through the fake sudo, whose sftp-server is the real local one.
func TestBecomeUsesSudoForCommandsAndFiles(t *testing.T) {
	if _, err := os.Stat("/usr/lib/openssh/sftp-server"); err != nil {
		t.Skip("SKIPPED: needs /usr/lib/openssh/sftp-server (Debian's openssh-sftp-server)")
	}
	p := becomePool(t)
	ctx := context.Background()
	if res, err := p.Run(ctx, "good", "echo $VIA_SUDO"); err != nil || string(res.Stdout) != "yes\n" {
		t.Fatalf("command did not run through sudo: %v", err)
	}
	if _, err := p.Run(ctx, "nosudo", "true"); err == nil || !strings.Contains(err.Error(), "a password is required") {
		t.Fatalf("command without sudo rights: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "object-server.conf")
	ch, err := p.Upload(ctx, "good", File{Path: dst, Content: []byte("[DEFAULT]\n"), Mode: 0o640})
	if err != nil || ch != Written {
		t.Fatalf("upload: %v %v", ch, err)
	}
	fi, err := os.Stat(dst)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("uploaded file: %v %v", fi, err)
	}
	if ch, err := p.Upload(ctx, "good", File{Path: dst, Content: []byte("[DEFAULT]\n"), Mode: 0o600}); err != nil || ch != AttrsOnly {
		t.Fatalf("mode-only change: %v %v", ch, err)
	}
	if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v", fi.Mode())
	}
}
