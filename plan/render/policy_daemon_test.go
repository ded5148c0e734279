package render

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/load/prefill"
	"benchbed/plan/plantest"
	"benchbed/plan/scenario"
)

// policyDaemonTestbed is one host on 127.0.0.1 with 6 object disks: policy
// 0 replicated once, policy 1 (ec42) EC 4+2 on all six, and a proxy without
// auth (no memcached needed): a storage URL with any token reaches it.
// %[1]d..%[4]d are the object, container, account and proxy ports, %[5]s
// the devices directory.
const policyDaemonTestbed = `
testbed "policies" {}
host "aio" {
  address = "127.0.0.1"
  roles   = ["proxy", "object", "container", "account"]
  disks "object" { names = ["d0", "d1", "d2", "d3", "d4", "d5"] }
  disks "meta" { names = ["m0"] }
}
ring "object" {
  part_power = 4
  replicas   = 1
  disks      = "object"
  port       = %[1]d
}
ring "object-1" {
  part_power = 4
  replicas   = 6
  disks      = "object"
  port       = %[1]d
}
ring "container" {
  part_power = 4
  replicas   = 1
  disks      = "meta"
  port       = %[2]d
}
ring "account" {
  part_power = 4
  replicas   = 1
  disks      = "meta"
  port       = %[3]d
}
policy "rep1" {
  index   = 0
  default = true
}
policy "ec42" {
  index                   = 1
  type                    = "erasure_coding"
  ec_type                 = "liberasurecode_rs_vand"
  ec_num_data_fragments   = 4
  ec_num_parity_fragments = 2
  ec_object_segment_size  = 262144
}
locals {
  # test only: the daemons stay root (the devices are in a root-only temp dir)
  common = { user = "root", devices = "%[5]s", workers = 1, mount_check = false, disable_fallocate = true }
}
service "proxy-server" {
  role     = "proxy"
  settings = {
    DEFAULT = { user = "root", workers = 1, bind_port = %[4]d }
    "pipeline:main" = { pipeline = "catch_errors gatekeeper healthcheck proxy-logging listing_formats bulk copy slo dlo proxy-logging proxy-server" }
  }
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = local.common }
}
service "container-server" {
  role     = "container"
  settings = { DEFAULT = local.common }
}
service "account-server" {
  role     = "account"
  settings = { DEFAULT = local.common }
}
variant "normal" {}
workload "ec" {
  policy      = "ec42"
  storage_url = "http://127.0.0.1:%[4]d/v1/AUTH_test"
  token       = "none"
  scenario    = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }
}
`

// TestRealSwiftPoliciesLargeObjectsVerified runs Debian's Swift 2.30 with
// the rendered swift.conf of a replicated and an EC 4+2 policy, prefills
// and runs a scenario of large objects (SLO, segments not on 64 KiB
// boundaries) and small ones in the EC policy with verified reads: no
// error, and the run's objects and their segments are gone at its end.
// Then a replicated object's file is changed on disk behind Swift's back:
// its verified GET is counted as corrupt.
func TestRealSwiftPoliciesLargeObjectsVerified(t *testing.T) {
	needDaemons(t)
	dir := t.TempDir()
	p := freePorts(t, 4)
	devices := filepath.Join(dir, "srv")
	tb := plantest.LoadText(t, "policies.hcl", fmt.Sprintf(policyDaemonTestbed, p[0], p[1], p[2], p[3], devices))
	r, err := Render(tb, tb.Variant("normal"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	etc := mkdir(t, dir, "etc-swift")
	for _, c := range r.Confs {
		writeConf(t, c.File, filepath.Join(etc, filepath.Base(c.Path)))
	}
	for _, d := range []string{"d0", "d1", "d2", "d3", "d4", "d5", "m0"} {
		mkdir(t, devices, d)
	}
	runSwift(t, dir, ringsFor(r.Layout, tb, etc), []swiftCheck{})
	for _, s := range []string{"proxy", "object", "container", "account"} {
		startDaemon(t, dir, etc, s)
	}
	for _, port := range p {
		if err := waitHealthy(port, 3*time.Minute); err != nil {
			t.Fatalf("port %d: %v\n%s", port, err, daemonLogs(dir))
		}
	}
	w := tb.Workload("ec")
	spec := load.AuthSpec{StorageURL: w.StorageURL, Token: w.Token}
	s, err := scenario.Parse([]byte(`{"name": "ec", "crud_profile": [1, 2, 0, 1], "operation_count": 30,
	  "sizes": [{"name": "big", "size_min": 1500000, "size_max": 1500000}, {"name": "small", "size_min": 70000, "size_max": 70000}],
	  "initial_files": {"big": 3, "small": 3}, "container_count": 2, "segment_size": 400000, "policy": "` + w.Policy + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	prefillAndRun(ctx, t, s, spec, dir)

	// Corruption behind Swift's back, in the replicated policy 0.
	client := &load.Client{HTTP: http.DefaultClient, Auth: load.StaticAuth{StorageURL: w.StorageURL, AuthToken: w.Token}, MaxRetries: 0}
	must := func(o load.Outcome, what string) {
		if !o.OK() {
			t.Fatalf("%s: %+v\n%s", what, o, daemonLogs(dir))
		}
	}
	must(client.Do(ctx, &load.Request{Method: http.MethodPut, Container: "rep"}, time.Now()), "PUT container rep")
	must(client.Do(ctx, &load.Request{Method: http.MethodPut, Container: "rep", Object: "o", Size: 100000}, time.Now()), "PUT rep/o")
	data := findData(t, filepath.Join(devices), "objects")
	f, err := os.OpenFile(data, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0x42, 0x43}, 50000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	v := load.NewVerifier()
	o := v.Check(client.Do(ctx, &load.Request{Method: http.MethodGet, Container: "rep", Object: "o", Sink: v.Reset()}, time.Now()))
	if !errors.Is(o.Err, load.ErrCorrupt) || o.ErrorKey() != "corrupt" {
		t.Fatalf("GET of an object changed on disk: %+v, want corrupt", o)
	}
}

// prefillAndRun prefills s's initial objects and runs it with verified
// reads, checking that nothing failed and that the run cleaned up.
func prefillAndRun(ctx context.Context, t *testing.T, s *scenario.Scenario, spec load.AuthSpec, dir string) {
	t.Helper()
	st, err := prefill.NewHTTPStore(spec, 4, s.Policy)
	if err != nil {
		t.Fatal(err)
	}
	l, err := prefill.NewLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	var cnt prefill.Counters
	if err := prefill.Run(ctx, l, st, prefill.Options{Concurrency: 4}, &cnt); err != nil || cnt.Snapshot().Put != 6 {
		t.Fatalf("prefill: %v, %+v\n%s", err, cnt.Snapshot(), daemonLogs(dir))
	}
	client := &load.Client{HTTP: st.HTTP, Auth: st.Auth, MaxRetries: 3}
	res, err := load.Run(ctx, load.Config{Scenario: s, Client: client, Users: 2, Verify: true})
	if err != nil || res.Cleanup != nil {
		t.Fatalf("run: %v, cleanup: %v\n%s", err, res.Cleanup, daemonLogs(dir))
	}
	var ops, errs int64
	var causes []string
	for op, h := range res.Recording {
		ops += h.LastByte.Count() + h.ErrorCount()
		errs += h.ErrorCount()
		for k, n := range h.Errors {
			causes = append(causes, fmt.Sprintf("%s %s: %d", op, k, n))
		}
	}
	if ops != 30 || errs != 0 || res.Recording[load.OpRead].LastByte.Count() == 0 {
		t.Fatalf("%d operations, %d errors (%s)\n%s", ops, errs, strings.Join(causes, ", "), daemonLogs(dir))
	}
	// Only the initial objects are left: 3 manifests of 4 segments each.
	var again prefill.Counters
	if err := prefill.Run(ctx, l, st, prefill.Options{CheckOnly: true}, &again); err != nil || again.Snapshot().Missing != 0 {
		t.Errorf("initial objects after the run: %v, %+v", err, again.Snapshot())
	}
	segs := 0
	for i := range s.ContainerCount {
		n, err := st.List(ctx, scenario.SegmentContainer(s.ContainerName(i)), "", prefill.PageSize, func(string, int64) {})
		if err != nil {
			t.Fatal(err)
		}
		segs += n
	}
	if segs != 3*4 {
		t.Errorf("%d segments left, want the initial objects' 12", segs)
	}
}

// findData returns the one .data file under devices/*/<dir>.
func findData(t *testing.T, devices, dir string) string {
	t.Helper()
	var found []string
	ds, _ := filepath.Glob(filepath.Join(devices, "*", dir))
	for _, d := range ds {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".data") {
				found = append(found, p)
			}
			return nil
		})
	}
	if len(found) != 1 {
		t.Fatalf(".data files under %s/*/%s: %v", devices, dir, found)
	}
	return found[0]
}
