package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// s3Testbed is a proxy with pipeline pipe (none: the built-in one), an S3
// workload with scenario sc and auth attributes extra.
func s3Testbed(pipe, sc, extra string) string {
	settings := ""
	if pipe != "" {
		settings = `  settings = { "pipeline:main" = { pipeline = "` + pipe + `" } }` + "\n"
	}
	return `testbed "t" {}
host "p1" {
  address = "127.0.0.1"
  roles   = ["proxy", "object", "client"]
  disks "d" { names = ["d1"] }
}
ring "object" {
  part_power = 8
  disks      = "d"
}
service "proxy-server" {
  role = "proxy"
` + settings + `}
service "object-server" { role = "object" }
variant "v" {}
workload "s3" {
  api      = "s3"
  scenario = ` + sc + `
  auth {
    url  = "http://127.0.0.1:8080"
    user = "test:tester"
    key  = "testing"
` + extra + `  }
}
`
}

const (
	s3SmallSc = `{ sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }`
	s3LargeSc = `{ sizes = [{ name = "l", size_min = 6000000, size_max = 6000000 }], segment_size = 1048576, initial_files = { l = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }`
	s3Pipe    = "catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server"
)

func loadS3(t *testing.T, text string) hcl.Diagnostics {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tb.hcl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := Load(path, LoadOptions{})
	return diags
}

func TestS3WorkloadDecodes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tb.hcl")
	if err := os.WriteFile(path, []byte(s3Testbed(s3Pipe, s3LargeSc, "    region = \"r1\"\n    path_style = true\n    payload = \"hashed\"\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := Load(path, LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	w := tb.Workloads[0]
	if w.API != "s3" || w.Auth.Kind != "s3" || w.Auth.Region != "r1" || !w.Auth.PathStyle || !w.Auth.SignPayload || w.Auth.User != "test:tester" {
		t.Fatalf("workload: api %q, auth %+v", w.API, *w.Auth)
	}
}

func TestS3PipelineAndWorkloadErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"s3api after tempauth", s3Testbed(strings.Replace(s3Pipe, "s3api tempauth", "tempauth s3api", 1), s3SmallSc, ""),
			`tb.hcl:13,36-`},
		{"no s3api", s3Testbed("", s3SmallSc, ""), `S3 workload without s3api; workload "s3" speaks S3, and variant "v" gives proxy-server the pipeline`},
		{"no s3api in the given pipeline", s3Testbed(strings.Replace(s3Pipe, "s3api ", "", 1), s3SmallSc, ""), `tb.hcl:13,36-`},
		{"cache after s3api", s3Testbed(strings.Replace(s3Pipe, "cache listing_formats s3api", "listing_formats s3api cache", 1), s3SmallSc, ""),
			"needs cache before s3api"},
		{"no slo for multipart", s3Testbed(strings.Replace(s3Pipe, " slo", "", 1), s3LargeSc, ""),
			"the S3 workloads' large size classes need multipart uploads"},
		{"region without api", strings.Replace(s3Testbed(s3Pipe, s3SmallSc, "    region = \"r1\"\n"), `api      = "s3"`, "", 1),
			`tb.hcl:24,5-11: S3 attribute without api = "s3"`},
		{"keystone", s3Testbed(s3Pipe, s3SmallSc, "    kind = \"v3\"\n"), "Keystone's s3token is not supported"},
		{"bad payload", s3Testbed(s3Pipe, s3SmallSc, "    payload = \"chunked\"\n"), "payload"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags := loadS3(t, tc.text)
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.want) {
				t.Fatalf("want an error with %q, got:\n%s", tc.want, diags.Error())
			}
		})
	}
}
