package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// captureRun runs the CLI in-process with args and returns its exit code,
// stdout and stderr (os.Stdout and os.Stderr are swapped for files).
func captureRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	outF, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outF, errF
	code := run(args)
	os.Stdout, os.Stderr = oldOut, oldErr
	read := func(f *os.File) string {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		return string(b)
	}
	return code, read(outF), read(errF)
}

const seedFile = "../../testbeds/swiftstack-2015.hcl"

// onlyRetiredWarnings reports whether stderr holds nothing but warnings
// about retired Swift options: the seed's 2015 confs set seven (its
// threads_per_disk variant among them), which benchbed says wherever it
// reads the seed. A diagnostic starts on an unindented line; its snippet
// and detail follow, indented.
func onlyRetiredWarnings(stderr string) bool {
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		indented := strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")
		if l != "" && !indented && !strings.HasSuffix(l, ": warning: Retired Swift option") {
			return false
		}
	}
	return true
}

func TestValidateSeed(t *testing.T) {
	code, out, errOut := captureRun(t, "validate", seedFile)
	if code != 0 || !onlyRetiredWarnings(errOut) || strings.Count(errOut, "Retired Swift option") != 7 || !strings.Contains(out, "6 cells") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

func TestValidateBroken(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.hcl")
	text := "testbed \"x\" {}\nhost \"h\" {\n  address = [1]\n  roles = [\"object\"]\n  bogus = 2\n}\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := captureRun(t, "validate", bad)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{bad + ":3,13: Invalid value for address", bad + ":5,3: Unsupported argument"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
		if !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, bad+":") {
			t.Errorf("line %q is not FILE:LINE,COL: summary", line)
		}
	}
}

func TestValidateVarsAndMissingFile(t *testing.T) {
	code, _, errOut := captureRun(t, "validate", "--var", "nosuch=1", seedFile)
	if code != 1 || !strings.Contains(errOut, "Undeclared variable") {
		t.Errorf("--var nosuch: exit %d, stderr %s", code, errOut)
	}
	code, _, errOut = captureRun(t, "validate", "--var", "novalue", seedFile)
	if code != 2 || !strings.Contains(errOut, "want name=value") || !strings.Contains(errOut, "Usage: benchbed validate FILE") {
		t.Errorf("--var novalue: exit %d, stderr %s", code, errOut)
	}
	code, _, errOut = captureRun(t, "validate", filepath.Join(t.TempDir(), "none.hcl"))
	if code != 2 || !strings.Contains(errOut, "Cannot read testbed file") {
		t.Errorf("missing file: exit %d, stderr %s", code, errOut)
	}
	t.Setenv("BENCHBED_VAR_auth_key", "from-the-env")
	code, out, errOut := captureRun(t, "plan", "--json", seedFile)
	if code != 0 || strings.Contains(out+errOut, "from-the-env") || strings.Contains(out+errOut, "change-me") {
		t.Errorf("plan with env secret: exit %d, secret leaked or failed:\n%s\n%s", code, out, errOut)
	}
}

// TestValidateEveryBrokenTestbed runs validate on every broken testbed of
// plan/decode/testdata: none may panic; each exits 1 (0 for the warning-only one)
// and prints only FILE:LINE,COL: lines and their indented details.
func TestValidateEveryBrokenTestbed(t *testing.T) {
	files, err := filepath.Glob("../../plan/decode/testdata/broken/*.hcl")
	if err != nil || len(files) < 25 {
		t.Fatalf("%d broken testbeds (%v), want at least 25", len(files), err)
	}
	for _, f := range files {
		code, _, errOut := captureRun(t, "validate", f)
		want := 1
		if strings.Contains(f, "warning_") {
			want = 0
		}
		if code != want {
			t.Errorf("%s: exit %d, want %d\n%s", f, code, want, errOut)
		}
		lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
		if !strings.HasPrefix(lines[0], f+":") {
			t.Errorf("%s: first line %q is not FILE:LINE,COL: summary", f, lines[0])
		}
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, f+":") {
				t.Errorf("%s: line %q is neither a diagnostic nor its detail", f, l)
			}
		}
	}
}
