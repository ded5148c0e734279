package remote

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"golang.org/x/crypto/ssh"
)

// TestRemoteHelperProcess is not a test: TestSSHDClientKilled runs the test
// binary as a benchbed stand-in that starts a command and waits to be
// killed.
func TestRemoteHelperProcess(t *testing.T) {
	if os.Getenv("BENCHBED_REMOTE_HELPER") != "1" {
		t.Skip("helper process for TestSSHDClientKilled, not a test")
	}
	port, _ := strconv.Atoi(os.Getenv("HELPER_PORT"))
	cfg := Config{Name: "victim", Address: os.Getenv("HELPER_IP"), Port: port, User: "root",
		IdentityFiles: []string{os.Getenv("HELPER_KEY")}, KnownHosts: []string{os.Getenv("HELPER_KNOWN")}, SSHConfigFile: "none"}
	p, err := NewPool([]Config{cfg})
	if err != nil {
		t.Fatal(err)
	}
	p.Run(context.Background(), "victim", os.Getenv("HELPER_CMD")) // blocks until killed
}

// TestSSHDClientKilled: when benchbed dies by SIGKILL mid-command, the
// closed connection is enough for the host to kill everything it started.
func TestSSHDClientKilled(t *testing.T) {
	needSSHD(t)
	tc := newTestClient(t)
	d := startSSHD(t, "127.0.0.9", []ssh.PublicKey{tc.pub}, nil, "")
	tc.trustSSHD(t, d)
	n := 100000 + rand.IntN(800000)
	helper := exec.Command(os.Args[0], "-test.run=^TestRemoteHelperProcess$", "-test.count=1")
	helper.Env = append(os.Environ(), "BENCHBED_REMOTE_HELPER=1", "HELPER_IP="+d.ip, "HELPER_PORT="+strconv.Itoa(d.port),
		"HELPER_KEY="+tc.key, "HELPER_KNOWN="+tc.knownHosts,
		fmt.Sprintf(`HELPER_CMD=sleep %d & (trap "" TERM; sleep %d) & sleep %d`, n, n+1, n+2))
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the helper's command to start its sleeps", func() bool { return len(sleepers(n)) == 3 })
	if err := helper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	helper.Wait()
	waitFor(t, "the host to kill every process of the dead client's command", func() bool { return len(sleepers(n)) == 0 })
}
