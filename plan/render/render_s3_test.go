package render

import (
	"strings"
	"testing"

	"benchbed/plan/plantest"
)

// TestS3WorkloadRendersS3apiAndItsTempauthUser: a testbed whose proxy
// pipeline has s3api renders it with its filter section, and an S3
// workload's access key (account:user) and secret key become tempauth's
// user, as a Swift workload's auth does.
func TestS3WorkloadRendersS3apiAndItsTempauthUser(t *testing.T) {
	const pipe = "catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server"
	tb := plantest.LoadText(t, "s3.hcl", `testbed "t" {}
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
  role     = "proxy"
  settings = { "pipeline:main" = { pipeline = "`+pipe+`" } }
}
service "object-server" { role = "object" }
variant "v" {}
workload "s3" {
  api      = "s3"
  scenario = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }
  auth {
    url        = "http://127.0.0.1:8080"
    user       = "s3acct:s3user"
    key        = "s3-secret"
    path_style = true
  }
}
`)
	r, err := Render(tb, tb.Variant("v"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Confs {
		if !strings.HasSuffix(c.Path, "proxy-server.conf") {
			continue
		}
		p, _ := c.File.Value("pipeline:main", "pipeline")
		use, _ := c.File.Value("filter:s3api", "use")
		user, _ := c.File.Value("filter:tempauth", "user_s3acct_s3user")
		if p != pipe || use != "egg:swift#s3api" || user != "s3-secret .admin" {
			t.Fatalf("pipeline %q, s3api use %q, tempauth user %q", p, use, user)
		}
		return
	}
	t.Fatal("no proxy-server.conf rendered")
}
