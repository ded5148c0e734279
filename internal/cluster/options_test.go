package cluster

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/plantest"
)

// optionsTestbed has two storage hosts and a proxy; its object server's
// variant sets keep_cache_slo_manifest, an option Swift 2.33 added: known
// to the union of benchbed's catalogs, so validate passes it.
const optionsTestbed = `
testbed "opts" {}
host "p1" {
  address = "127.0.0.1"
  roles   = ["proxy"]
}
host "s1" {
  address = "127.0.0.2"
  roles   = ["object"]
  disks "d" { names = ["d0"] }
}
host "s2" {
  address = "127.0.0.3"
  roles   = ["object"]
  disks "d" { names = ["d0"] }
}
ring "object" {
  part_power = 4
  replicas   = 1
  disks      = "d"
}
service "proxy-server" {
  role     = "proxy"
  settings = { DEFAULT = { workers = 2 } }
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { workers = 2 } }
}
variant "normal" {}
variant "newer" {
  set "object-server" {
    settings = { "app:object-server" = { keep_cache_slo_manifest = true } }
  }
}
`

// TestCheckOptionsAgainstTheHostsSwift reads the sample confs of the Swift
// installed here as every host's (the local shell stands for the hosts)
// and refuses the option that Swift lacks, naming the hosts, the file and
// line; without the variant the hosts pass, with the catalog named.
func TestCheckOptionsAgainstTheHostsSwift(t *testing.T) {
	if exec.Command(plan.SystemPython, "-c", "import swift").Run() != nil {
		t.Skip("SKIP: no Swift here (python3-swift): the hosts' own option catalogs are not tested; make test installs it")
	}
	tb := plantest.LoadText(t, "opts.hcl", optionsTestbed)
	line := strings.Count(optionsTestbed[:strings.Index(optionsTestbed, "keep_cache")], "\n") + 1
	sh := labtest.NewShell(t, "p1", "s1", "s2", "client")
	cats, err := CheckOptions(context.Background(), sh, tb)
	if len(cats) != 2 || strings.Join(cats[0].Hosts, ",") != "p1" || strings.Join(cats[1].Hosts, ",") != "s1,s2" ||
		cats[1].Catalog == nil || !strings.Contains(cats[1].From, "own sample confs") || cats[0].Version != cats[1].Version {
		t.Fatalf("catalogs: %+v", cats)
	}
	if !strings.HasPrefix(cats[0].Version, "2.30") {
		t.Skipf("SKIP: Swift %s here, whose catalog may know keep_cache_slo_manifest: the refusal is tested on 2.30 (Debian 12)", cats[0].Version)
	}
	if err == nil || !strings.Contains(err.Error(), "s1, s2 (Swift 2.30") || strings.Contains(err.Error(), "p1") ||
		!strings.Contains(err.Error(), fmt.Sprintf("opts.hcl:%d", line)) || !strings.Contains(err.Error(), `reads no "keep_cache_slo_manifest"`) {
		t.Fatalf("err = %v; want s1 and s2's Swift to refuse keep_cache_slo_manifest at opts.hcl:%d", err, line)
	}
	tb.Variants = tb.Variants[:1]
	if _, err := CheckOptions(context.Background(), sh, tb); err != nil {
		t.Fatalf("without the newer option: %v", err)
	}
}
