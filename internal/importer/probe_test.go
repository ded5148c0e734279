package importer

import (
	"strings"
	"testing"

	"benchbed/plan"
)

// probeOutput is what probeScript prints on a host with a systemd proxy,
// a swift-init object server with workers and replicator, a container
// server started by hand, rings and two XFS disks.
const probeOutput = "\x1eversion\n2.30.1\n" +
	"\x1eaddrs\n10.0.0.5 fd00::5 \n" +
	"\x1eswift-init\n/usr/bin/swift-init\n" +
	"\x1econf /etc/swift/swift.conf\n[swift-hash]\nswift_hash_path_suffix = s\n\n" +
	"\x1erings\n" +
	`{"kind": "builder", "name": "object", "part_power": 10, "replicas": 3.0, "min_part_hours": 1, "devs": [{"id": 0, "region": 1, "zone": 1, "ip": "10.0.0.5", "port": 6200, "device": "sdb", "weight": 4000.0}]}` + "\n" +
	`{"kind": "ring", "name": "object", "part_power": 10, "replicas": 3, "sum": "abc", "devs": []}` + "\n" +
	`{"kind": "ring", "name": "object-1", "error": "bad magic"}` + "\n" +
	"\x1eprocs\n" +
	"200 1 200 swift-proxy.service /usr/bin/python3 /usr/bin/swift-proxy-server /etc/swift/proxy-server.conf\n" +
	"201 200 200 swift-proxy.service /usr/bin/python3 /usr/bin/swift-proxy-server /etc/swift/proxy-server.conf\n" +
	"300 1 300 - /usr/bin/python3 /usr/bin/swift-object-server /etc/swift/object-server.conf\n" +
	"301 300 300 - /usr/bin/python3 /usr/bin/swift-object-server /etc/swift/object-server.conf\n" +
	"310 1 310 - /usr/bin/python3 /usr/bin/swift-object-replicator /etc/swift/object-server.conf\n" +
	"400 77 77 session-3.scope /usr/bin/swift-container-server /etc/swift/container-server.conf\n" +
	"500 1 500 - sh -c echo swift-object-server\n" +
	"\x1epidfiles\n300 /var/run/swift/object-server.pid\n310 /var/run/swift/object-replicator.pid\n" +
	"\x1edevices /srv/node\nsdb\nsdc\n" +
	"\x1emounts\n/srv/node/sdb /dev/sdb xfs\n/srv/node/sdc /dev/sdc xfs\n"

func TestParseProbe(t *testing.T) {
	f, err := ParseProbe("h1", []byte(probeOutput))
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != "2.30.1" || strings.Join(f.Addrs, " ") != "10.0.0.5 fd00::5" || !f.SwiftInit {
		t.Errorf("version %q addrs %q swift-init %v", f.Version, f.Addrs, f.SwiftInit)
	}
	if got := string(f.Confs["/etc/swift/swift.conf"]); got != "[swift-hash]\nswift_hash_path_suffix = s\n" {
		t.Errorf("swift.conf %q", got)
	}
	if len(f.Rings) != 3 || f.Rings[0].Devs[0].Weight != 4000 || f.Rings[2].Error != "bad magic" {
		t.Errorf("rings %+v", f.Rings)
	}
	if r := f.ringDump("object"); r == nil || r.Kind != "builder" {
		t.Errorf("ringDump(object) = %+v, want the builder", r)
	}
	if f.ringDump("object-1") != nil {
		t.Error("a ring that could not be read was taken")
	}
	if f.DevicesDir != "/srv/node" || len(f.DeviceDirs) != 2 || f.Mounts["/srv/node/sdc"].FSType != "xfs" {
		t.Errorf("devices %q %q mounts %v", f.DevicesDir, f.DeviceDirs, f.Mounts)
	}
	want := map[string]string{
		"proxy-server":      plan.ManagerSystemd + " swift-proxy",
		"object-server":     plan.ManagerSwiftInit + " ",
		"object-replicator": plan.ManagerSwiftInit + " ",
		"container-server":  plan.ManagerDirect + " ",
	}
	got := map[string]string{}
	for _, s := range f.Servers() {
		got[s.Name()] = s.Manager + " " + s.Unit
		if s.Conf != "/etc/swift/"+s.Role+"-server.conf" {
			t.Errorf("%s: conf %q", s.Name(), s.Conf)
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: manager %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("servers %v, want %v (workers and the shell left out)", got, want)
	}
}

// TestProbeThroughRunner: Probe runs one command a host and names a host
// it cannot read.
func TestProbeThroughRunner(t *testing.T) {
	r := &fakeRunner{out: map[string]string{"h1": probeOutput}}
	facts, err := Probe(t.Context(), r, []string{"h1", "h2"})
	if len(facts) != 1 || facts[0].Host != "h1" || facts[0].Version != "2.30.1" {
		t.Errorf("facts %+v", facts)
	}
	if err == nil || !strings.Contains(err.Error(), "h2") {
		t.Errorf("err = %v, want one naming h2", err)
	}
	if r.runs != 2 {
		t.Errorf("%d commands, want one a host", r.runs)
	}
}
