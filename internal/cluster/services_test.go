package cluster

import (
	"fmt"
	"strings"
	"testing"

	"benchbed/internal/labtest"
)

func describe(ds []Daemon, ls []listener) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s(%s) ", d.Name, d.Manager)
	}
	for _, l := range ls {
		fmt.Fprintf(&b, "%s@%s ", l.Service, l.Addr)
	}
	return strings.TrimSpace(b.String())
}

func TestHostDaemonsOfTheLab(t *testing.T) {
	tb := labtest.LabTestbed(t)
	for _, c := range []struct{ variant, host, want string }{
		{"normal", "proxy1", "memcached(direct) proxy-server(direct) proxy-server@198.18.0.11:8080"},
		{"normal", "stor1", "object-server(direct) container-server(direct) account-server(direct) " +
			"object-server@198.18.0.21:6200 container-server@198.18.0.21:6201 account-server@198.18.0.21:6202"},
		{"servers_per_port=2", "stor2", "object-server(direct) container-server(direct) account-server(direct) " +
			"object-server@198.18.0.22:6210 object-server@198.18.0.22:6211 object-server@198.18.0.22:6212 object-server@198.18.0.22:6213 " +
			"container-server@198.18.0.22:6201 account-server@198.18.0.22:6202"},
		{"normal", "client1", ""},
	} {
		got := describe(HostDaemons(tb, labtest.RenderVariant(t, tb, c.variant), tb.Host(c.host)))
		if got != c.want {
			t.Errorf("%s on %s:\n got %s\nwant %s", c.variant, c.host, got, c.want)
		}
	}
}

func TestDisksScriptOfTheLab(t *testing.T) {
	tb := labtest.LabTestbed(t)
	s := DisksScript(tb, tb.Host("stor1"), devicesRoot)
	for _, d := range []string{"d0", "d1", "d2", "d3", "m0"} {
		if !strings.Contains(s, "mkdir -p /srv/node/"+d+";") {
			t.Errorf("stor1's disk script does not make /srv/node/%s:\n%s", d, s)
		}
	}
	if s := DisksScript(tb, tb.Host("proxy1"), devicesRoot); strings.Contains(s, "/srv/node/d") {
		t.Errorf("proxy1 gets disks:\n%s", s)
	}
}

func TestPoolConfigsAndBuilder(t *testing.T) {
	tb := labtest.LabTestbed(t)
	cfgs := PoolConfigs(tb)
	if len(cfgs) != 4 || cfgs[0].Name != "proxy1" || cfgs[0].Address != "198.18.0.11" || cfgs[0].User != "root" ||
		!strings.HasSuffix(cfgs[0].SSHConfigFile, "/client/ssh_config") || len(cfgs[0].KnownHosts) != 1 {
		t.Errorf("pool configs: %+v", cfgs)
	}
	b, err := tb.BuilderHost()
	if err != nil || b.Name != "proxy1" {
		t.Errorf("builder host %v, %v; want proxy1", b, err)
	}
	if got := Names(ServiceHosts(tb)); strings.Join(got, ",") != "proxy1,stor1,stor2" {
		t.Errorf("service hosts %v", got)
	}
}
