package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/results"
)

// swiftS3 is a one-node Swift with s3api and tempauth on 127.0.0.1
// (testdata/swift-s3-up.sh in a private mount namespace).
type swiftS3 struct {
	endpoint string
	dir      string
}

// startSwiftS3 starts it for the test's life, or skips loudly where it
// cannot run.
func startSwiftS3(t *testing.T) *swiftS3 {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("SKIP: not root: Swift's s3api test binds its /etc/swift in a private mount namespace")
	}
	for _, p := range []string{"/usr/bin/unshare", "/usr/bin/swift-proxy-server", "/usr/bin/swift-object-server",
		"/usr/bin/swift-ring-builder", "/usr/bin/memcached"} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("SKIP: %s is missing: install Debian's swift, swift-proxy, swift-object, swift-container, swift-account and memcached (scripts/deps.sh)", p)
		}
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import swift.common.middleware.s3api.s3api").Run(); err != nil {
		t.Skipf("SKIP: python3-swift has no s3api here (%v)", err)
	}
	dir := t.TempDir()
	ports := make([]string, 5)
	for i := range ports {
		ports[i] = strconv.Itoa(freeLoopbackPort(t))
	}
	log, err := os.Create(filepath.Join(dir, "up.log"))
	if err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("testdata/swift-s3-up.sh")
	cmd := exec.Command("/usr/bin/unshare", append([]string{"--mount", "--propagation", "private", script, dir}, ports...)...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { endSwift(t, cmd, dir); log.Close() })
	s := &swiftS3{endpoint: "http://127.0.0.1:" + ports[0], dir: dir}
	if err := waitAllHealthy(ports[:4]); err != nil {
		data, _ := os.ReadFile(filepath.Join(dir, "proxy.log"))
		t.Fatalf("Swift with s3api did not start: %v\n%s", err, data)
	}
	return s
}

// freeLoopbackPort returns a port free on 127.0.0.1 now.
func freeLoopbackPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitAllHealthy polls each server's /healthcheck, the proxy's and the
// storage servers' (a startup bound, not a measurement).
func waitAllHealthy(ports []string) error {
	var last error
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		last = nil
		for _, p := range ports {
			resp, err := http.Get("http://127.0.0.1:" + p + "/healthcheck")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					err = fmt.Errorf("port %s: HTTP %s", p, resp.Status)
				}
			}
			if err != nil {
				last = err
				break
			}
		}
		if last == nil {
			return nil
		}
	}
	return last
}

// endSwift ends the script, which ends the servers it started (SIGTERM:
// each parent ends its workers), and makes sure that none of the pids it
// wrote outlives it: a Swift server leaves the script's process group.
func endSwift(t *testing.T, cmd *exec.Cmd, dir string) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	data, _ := os.ReadFile(filepath.Join(dir, "pids"))
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		if pid > 0 && syscall.Kill(pid, 0) == nil {
			t.Logf("server %d outlived the script: killed", pid)
			_ = syscall.Kill(-pid, syscall.SIGKILL) // its group: the server and its workers
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// swiftHeader returns a header of container c through Swift's own API.
func (s *swiftS3) swiftHeader(t *testing.T, c, name string) string {
	req, _ := http.NewRequest(http.MethodGet, s.endpoint+"/auth/v1.0", nil)
	req.Header.Set("X-Auth-User", "test:tester")
	req.Header.Set("X-Auth-Key", "testing")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	head, _ := http.NewRequest(http.MethodHead, resp.Header.Get("X-Storage-Url")+"/"+c, nil)
	head.Header.Set("X-Auth-Token", resp.Header.Get("X-Auth-Token"))
	hr, err := http.DefaultClient.Do(head)
	if err != nil {
		t.Fatal(err)
	}
	hr.Body.Close()
	return hr.Header.Get(name)
}

func TestS3ThroughSwiftS3apiReadBackByS3cmd(t *testing.T) {
	sw := startSwiftS3(t)
	sc := filepath.Join(t.TempDir(), "s3swift.scenario")
	if err := os.WriteFile(sc, []byte(`{"name": "s3swift", "crud_profile": [2, 5, 1, 1], "operation_count": 150,
	  "sizes": [{"name": "tiny", "size_min": 10, "size_max": 70000},
	            {"name": "big", "size_min": 5242881, "size_max": 6291456, "crud_profile": [1, 3, 0, 0]}],
	  "segment_size": 1048576, "initial_files": {"tiny": 30, "big": 2},
	  "container_base": "S3_Swift", "container_count": 2, "user_count": 4, "policy": "silver"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"load", "--api", "s3", "--endpoint", sw.endpoint, "--access-key", "test:tester", "--secret-key", "testing",
		"--path-style", "--scenario", sc, "--verify", "--keep", "--json"}
	out, stderr, err := runCmd(t, "", args...)
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil || c.Total.Errors != 0 || c.Total.Count != 150 {
		t.Fatalf("err %v, cell %+v\nstderr:\n%s", err, c.Total, stderr)
	}
	if p := sw.swiftHeader(t, "s3-swift-000000-silver", "X-Storage-Policy"); p != "silver" {
		t.Fatalf("the bucket's policy through Swift's API: %q, want silver", p)
	}
	_, stderr, err = runCmd(t, "", "load", "--api", "s3", "--endpoint", sw.endpoint, "--access-key", "test:tester",
		"--secret-key", "not-testing", "--path-style", "--scenario", sc)
	if err == nil || !strings.Contains(err.Error(), "403 SignatureDoesNotMatch: the secret key is not the access key's") {
		t.Fatalf("a wrong secret through s3api: %v\n%s", err, stderr)
	}
	t.Run("s3cmd", func(t *testing.T) {
		// ssbench's round robin puts the small class's initial files in
		// bucket 0 and the multipart ones in bucket 1.
		small := readBackByS3cmd(t, sw, "s3-swift-000000-silver")
		large := readBackByS3cmd(t, sw, "s3-swift-000001-silver")
		if small[0] < 15 || large[1] < 2 {
			t.Fatalf("s3cmd read back %d objects, %d multipart uploads", small[0]+large[0], small[1]+large[1])
		}
	})
}

// readBackByS3cmd lists bucket with Debian's s3cmd and reads every object
// back, comparing each with the content benchbed writes; it returns how
// many it read, and how many of them were multipart uploads.
func readBackByS3cmd(t *testing.T, sw *swiftS3, bucket string) [2]int {
	if _, err := exec.LookPath("s3cmd"); err != nil {
		t.Skip("SKIP: s3cmd is missing: install Debian's s3cmd (scripts/deps.sh)")
	}
	cfg := filepath.Join(t.TempDir(), "s3cfg")
	host := strings.TrimPrefix(sw.endpoint, "http://")
	conf := fmt.Sprintf("[default]\naccess_key = test:tester\nsecret_key = testing\nhost_base = %s\nhost_bucket = %s\n"+
		"use_https = False\nsignature_v2 = False\nbucket_location = us-east-1\n", host, host)
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	ls, err := exec.Command("s3cmd", "-c", cfg, "ls", "s3://"+bucket).CombinedOutput()
	if err != nil {
		t.Fatalf("s3cmd ls: %v\n%s", err, ls)
	}
	var objects, large int
	for _, line := range strings.Split(strings.TrimSpace(string(ls)), "\n") {
		f := strings.Fields(line) // date time size s3://bucket/key
		if len(f) != 4 {
			t.Fatalf("s3cmd ls line %q", line)
		}
		size, _ := strconv.ParseInt(f[2], 10, 64)
		got, err := exec.Command("s3cmd", "-c", cfg, "--no-progress", "get", f[3], "-").Output()
		if err != nil {
			t.Fatalf("s3cmd get %s: %v", f[3], err)
		}
		want, _ := io.ReadAll(load.Content(0, size))
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: s3cmd read %d bytes that differ from the %d benchbed wrote", f[3], len(got), size)
		}
		objects++
		if size > 5<<20 {
			large++
		}
	}
	t.Logf("s3cmd read back %d objects of %s, %d of them multipart uploads", objects, bucket, large)
	return [2]int{objects, large}
}
