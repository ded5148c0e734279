package distro

import (
	"strings"
	"testing"
)

// testSwiftInit sets up client1 as a Swift all in one whose servers
// swift-init runs (memcached directly), checks that systemd runs none of
// them, sets it up again without change, and sweeps servers_per_port=2
// (swift-init restarts a process group there and again at the restore)
// without errors, leaving its confs and rings as they were.
func testSwiftInit(t *testing.T, lab *Env, aio string) {
	out, errOut, err := lab.Benchbed("setup", "-q", aio)
	if err != nil {
		t.Fatalf("benchbed setup (swift-init): %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	for _, want := range []string{"installed swift-proxy memcached swift-object swift-container swift-account swift (apt)",
		"started memcached (direct)", "started proxy-server (swift-init)", "started object-server (swift-init)",
		"auth, PUT, GET, DELETE ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("setup's summary lacks %q:\n%s", want, out)
		}
	}
	got, err := lab.SSH("client1", "swift-init proxy-server object-server container-server account-server status >/dev/null && echo swift-init-ok; systemctl is-active swift-proxy swift-object memcached")
	if want := "swift-init-ok\ninactive\ninactive\ninactive\n"; got != want {
		t.Errorf("client1: got %q (%v), want %q: swift-init runs the servers, systemd none", got, err, want)
	}
	if out, _, err := lab.Benchbed("setup", "-q", aio); err != nil || !strings.Contains(out, "setup: no change; the cluster is healthy") {
		t.Errorf("second setup (swift-init) changed something: %v\n%s", err, out)
	}
	before, _ := lab.SSH("client1", "find /etc/swift -maxdepth 1 -type f | sort | xargs sha256sum")
	out, errOut, err = lab.Benchbed("sweep", aio, "--only", "servers_per_port=2")
	if err != nil {
		t.Fatalf("benchbed sweep (swift-init): %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if row := tableRow(out, "servers_per_port=2"); row == nil || row[len(row)-1] != "0" {
		t.Errorf("table row of servers_per_port=2: %q, want one ending in 0 errors:\n%s", row, out)
	}
	if after, _ := lab.SSH("client1", "find /etc/swift -maxdepth 1 -type f | sort | xargs sha256sum"); after != before {
		t.Errorf("client1's confs and rings differ after the sweep:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
