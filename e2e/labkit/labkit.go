package labkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// RepoRoot finds the directory holding go.mod above the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Lock takes the exclusive lock /run/lock/<name>.lock, waiting for it, and
// returns its file descriptor: the lock is held until it is closed or the
// process ends.
func Lock(name string) (int, error) {
	if err := os.MkdirAll("/run/lock", 0o755); err != nil {
		return -1, err
	}
	fd, err := syscall.Open("/run/lock/"+name+".lock", syscall.O_CREAT|syscall.O_RDWR|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return -1, fmt.Errorf("%s lock: %w", name, err)
	}
	if err := syscall.Flock(fd, syscall.LOCK_EX); err != nil {
		syscall.Close(fd)
		return -1, fmt.Errorf("%s lock: %w", name, err)
	}
	return fd, nil
}

// Build compiles root's cmd/benchbed into a new temporary directory named
// after prefix and returns the directory (the caller removes it) and the
// binary's path. A failed build returns the compiler's output in the error.
func Build(root, prefix string) (dir, bin string, err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", "", err
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		gobin = "/usr/local/go/bin/go"
	}
	bin = filepath.Join(dir, "benchbed")
	cmd := exec.Command(gobin, "build", "-o", bin, "./cmd/benchbed")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return dir, "", fmt.Errorf("building benchbed: %v\n%s", err, out)
	}
	return dir, bin, nil
}
