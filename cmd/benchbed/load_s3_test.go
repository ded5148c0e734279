package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/labtest/s3fake"
	"benchbed/results"
)

// s3Scenario writes a mixed scenario with a large class (multipart on S3)
// and returns its path.
func s3Scenario(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "s3.scenario")
	data := `{"name": "s3mix", "crud_profile": [2, 5, 1, 1], "operation_count": 200,
	  "sizes": [{"name": "tiny", "size_min": 10, "size_max": 4000},
	            {"name": "big", "size_min": 5242881, "size_max": 6291456, "crud_profile": [1, 3, 0, 0]}],
	  "segment_size": 1048576, "initial_files": {"tiny": 40, "big": 2},
	  "container_base": "S3_Base", "container_count": 3, "user_count": 4}`
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadS3ScenarioAgainstNonSwift(t *testing.T) {
	f := s3fake.Start(t, false)
	sc := s3Scenario(t)
	args := []string{"load", "--api", "s3", "--endpoint", f.URL, "--access-key", f.AccessKey, "--secret-key", f.SecretKey,
		"--path-style", "--scenario", sc, "--verify", "--json"}
	out, stderr, err := runCmd(t, "", args...)
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("err %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	if c.Total.Errors != 0 || c.Total.Count != 200 || c.Status != results.StatusOK {
		t.Fatalf("cell: %d ok, %d errors %v, status %s", c.Total.Count, c.Total.Errors, c.Total.ErrorsBy, c.Status)
	}
	if !strings.Contains(stderr, "initial files: 42 put, 0 already in place") || f.Count("POST uploadId") < 2 {
		t.Fatalf("initial files and multipart completions (%d):\n%s", f.Count("POST uploadId"), stderr)
	}
	buckets, err := f.Backend.ListBuckets()
	for _, b := range buckets {
		if !strings.HasPrefix(b.Name, "s3-base-00000") || !strings.HasSuffix(b.Name, "-default-policy") {
			t.Errorf("bucket %s is none of the scenario's", b.Name)
		}
	}
	if err != nil || len(buckets) != 3 {
		t.Fatalf("buckets %v, %v: want the scenario's 3 and no segment containers", buckets, err)
	}
	// A second run finds them all by listing (ListObjectsV2) and reads them back, verified.
	_, stderr, err = runCmd(t, "", append(args[:len(args)-1], "--initial", "check")...)
	if err != nil || !strings.Contains(stderr, "initial files: all 42 in place") {
		t.Fatalf("--initial check: %v\n%s", err, stderr)
	}
	if strings.Contains(out+stderr, f.SecretKey) {
		t.Fatal("the secret key was printed")
	}
}

func TestLoadS3FromEnvironmentVirtualHostOpenLoop(t *testing.T) {
	f := s3fake.Start(t, true)
	t.Setenv("AWS_ENDPOINT_URL", f.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", f.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", f.SecretKey)
	t.Setenv("AWS_REGION", f.Region)
	out, stderr, err := runCmd(t, "", "load", "--api", "s3", "--scenario", s3Scenario(t), "--rate", "400",
		"--operations", "100", "--payload", "hashed", "--verify", "--json")
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil || c.Total.Errors != 0 || c.Total.Count != 100 {
		t.Fatalf("err %v, cell %+v\nstderr:\n%s", err, c.Total, stderr)
	}
}

func TestLoadS3WrongSecretSaysWhatToFix(t *testing.T) {
	f := s3fake.Start(t, false)
	const wrong = "wrong-secret-value"
	out, stderr, err := runCmd(t, "", "load", "--api", "s3", "--endpoint", f.URL, "--access-key", f.AccessKey,
		"--secret-key", wrong, "--path-style", "--scenario", s3Scenario(t))
	if err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch: the secret key is not the access key's") {
		t.Fatalf("err %v\nstderr:\n%s", err, stderr)
	}
	if strings.Contains(out+stderr+err.Error(), wrong) {
		t.Fatal("the secret key was printed")
	}
	if exitStatus(io.Discard, nil, err) != 1 {
		t.Fatalf("exit status %d, want 1", exitStatus(io.Discard, nil, err))
	}
}

func TestLoadS3Usage(t *testing.T) {
	for _, args := range [][]string{
		{"--api", "s3", "--endpoint", "http://127.0.0.1:1"},
		{"--api", "s4"},
		{"--endpoint", "http://127.0.0.1:1"},
		{"--api", "s3", "--endpoint", "http://127.0.0.1:1", "--access-key", "a", "--secret-key", "b", "--payload", "chunked"},
	} {
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "")
		_, _, err := runCmd(t, "", append([]string{"load", "--scenario", seedScenario, "--initial", "skip"}, args...)...)
		if exitStatus(io.Discard, nil, err) != 2 {
			t.Errorf("%v: err %v, exit %d, want 2", args, err, exitStatus(io.Discard, nil, err))
		}
	}
}
