package cluster

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/render"
)

// TestRoleDaemons: a service's daemons run beside its server with its
// manager and conf, and restart with it.
func TestRoleDaemons(t *testing.T) {
	tb := labtest.Testbed(t, "distro/distro.hcl")
	svc := tb.Service("object-server")
	svc.Daemons = []string{"replicator", "auditor"}
	r, err := render.Render(tb, tb.Variants[0], render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds, _ := HostDaemons(tb, r, tb.Host("stor1"))
	var got []string
	for _, d := range ds {
		got = append(got, d.Name+"="+d.Unit)
	}
	want := []string{"object-server=swift-object", "object-replicator=swift-object-replicator", "object-auditor=swift-object-auditor",
		"container-server=swift-container", "account-server=swift-account"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stor1's daemons (-want +got):\n%s", diff)
	}
	svc.Manager = plan.ManagerDirect
	if d := roleDaemon(svc, "auditor"); strings.Join(d.Argv, " ") != "/usr/bin/swift-object-auditor /etc/swift/object-server.conf -v" || d.Service() != "object-server" {
		t.Errorf("direct auditor: %q of %q", d.Argv, d.Service())
	}
}
