package decode

import (
	"strings"
	"testing"
	"time"

	"benchbed/plan"
)

var faultsBase = fixture("faults-base.hcl")

// loadFaults loads the faults fixture with the given variant blocks.
func loadFaults(t *testing.T, variants string) (*plan.Testbed, string) {
	t.Helper()
	return loadDiags(t, faultsBase+variants)
}

func TestFaultBlocksDecode(t *testing.T) {
	tb, diags := loadFaults(t, `
variant "normal" {}
variant "slow" {
  fault "slow_disk" {
    hosts = ["stor1"]
    disks = ["d1"]
    at    = 10
    for   = "20s"
    read_bytes_per_s = 2097152
    write_iops       = 50
  }
  fault "pause" {
    role    = "object"
    count   = 2
    service = "object-server"
    at      = 30
    for     = "end"
  }
}
`)
	if diags != "" {
		t.Fatalf("diagnostics: %s", diags)
	}
	v := tb.Variant("slow")
	if !v.HasFaults() || len(v.Faults) != 2 || tb.Variant("normal").HasFaults() {
		t.Fatalf("faults: %+v", v.Faults)
	}
	sd, p := v.Faults[0], v.Faults[1]
	if sd.Kind != plan.FaultSlowDisk || strings.Join(sd.Hosts, ",") != "stor1" || sd.At != 10*time.Second || sd.For != 20*time.Second ||
		sd.ReadBytesPerS != 2097152 || sd.WriteIOPS != 50 || strings.Join(sd.Services, ",") != "object-server" {
		t.Errorf("slow_disk: %+v", sd)
	}
	if sd.End(time.Minute) != 30*time.Second {
		t.Errorf("slow_disk ends at %s", sd.End(time.Minute))
	}
	if p.Kind != plan.FaultPause || strings.Join(p.Hosts, ",") != "stor1,stor2" || p.Role != "object" || !p.ToEnd || p.How != plan.HowSignal {
		t.Errorf("pause: %+v", p)
	}
	if p.End(time.Minute) != time.Minute {
		t.Errorf("pause to the end ends at %s", p.End(time.Minute))
	}
	if cells := plan.Expand(tb); len(cells) != 2 || !cells[1].Variant.HasFaults() {
		t.Errorf("faults are no matrix axis: %d cells", len(cells))
	}
}

func TestFaultBlockErrors(t *testing.T) {
	cases := []struct{ name, block, want string }{
		{"unknown kind", `fault "melt" { hosts = ["stor1"]  at = 1  for = 1 }`, "Unknown fault kind"},
		{"unknown host", `fault "stop" { hosts = ["stor9"]  service = "object-server"  at = 1  for = 1 }`, `"stor9"`},
		{"no target", `fault "stop" { service = "object-server"  at = 1  for = 1 }`, "No fault target"},
		{"too few", `fault "stop" { role = "object"  count = 3  service = "object-server"  at = 1  for = 1 }`, "wants 3 hosts"},
		{"unknown disk", `fault "fail_disk" { hosts = ["stor1"]  disks = ["d9"]  at = 1  for = 1 }`, `no disk "d9"`},
		{"directory disk", `fault "slow_disk" { hosts = ["stor1"]  disks = ["x1"]  service = "object-server"  read_iops = 5  at = 1  for = 1 }`, "not a device"},
		{"unknown service", `fault "pause" { hosts = ["stor1"]  service = "nope"  at = 1  for = 1 }`, `service "nope"`},
		{"service not on host", `fault "pause" { hosts = ["proxy1"]  service = "object-server"  at = 1  for = 1 }`, `host "proxy1" has none`},
		{"after the run", `fault "pause" { hosts = ["stor1"]  service = "object-server"  at = 60  for = 1 }`, "Fault after the run"},
		{"beyond the run", `fault "pause" { hosts = ["stor1"]  service = "object-server"  at = 50  for = 20 }`, "beyond the end"},
		{"zero for", `fault "pause" { hosts = ["stor1"]  service = "object-server"  at = 5  for = 0 }`, "Invalid value for for"},
		{"no throttle", `fault "slow_disk" { hosts = ["stor1"]  disks = ["d1"]  at = 1  for = 1 }`, "No throttle"},
		{"foreign attribute", `fault "fail_disk" { hosts = ["stor1"]  disks = ["d1"]  rate = "1mbit"  at = 1  for = 1 }`, "takes no rate"},
		{"bad rate", `fault "slow_link" { hosts = ["stor1"]  rate = "fast"  at = 1  for = 1 }`, "tc rate"},
		{"bad how", `fault "pause" { hosts = ["stor1"]  service = "object-server"  how = "kill"  at = 1  for = 1 }`, "how must be one of"},
		{"rebalance ring", `fault "rebalance" { hosts = ["stor1"]  disks = ["d1"]  ring = "object-7"  weight = 0  at = 1  for = 1 }`, `ring "object-7"`},
		{"rebalance two", `fault "rebalance" { role = "object"  count = 2  disks = ["d1"]  ring = "object"  weight = 0  at = 1  for = 1 }`, "One device per rebalance"},
		{"hosts and role", `fault "partition" { hosts = ["stor1"]  role = "object"  at = 1  for = 1 }`, "Conflicting fault targets"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := loadFaults(t, "variant \"v\" {\n  "+multiline(c.block)+"\n}\n")
			if !strings.Contains(diags, c.want) {
				t.Errorf("want %q in:\n%s", c.want, diags)
			}
		})
	}
}

func TestFaultManagerLimits(t *testing.T) {
	direct := strings.Replace(faultsBase, `service "object-server" {`, `service "object-server" {
  manager = "direct"`, 1)
	_, diags := loadDiags(t, direct+`variant "v" {
  fault "stop" {
    hosts = ["stor1"]
    service = "object-server"
    at = 1
    for = 1
  }
}
`)
	if !strings.Contains(diags, `use how = "kill"`) {
		t.Errorf("a direct service stopped by its manager: %s", diags)
	}
	_, diags = loadDiags(t, direct+`variant "v" {
  fault "stop" {
    hosts = ["stor1"]
    service = "object-server"
    how = "kill"
    at = 1
    for = 1
  }
}
`)
	if diags != "" {
		t.Errorf("kill of a direct service: %s", diags)
	}
}

func TestFaultNeedsARunOfFixedLength(t *testing.T) {
	text := strings.Replace(faultsBase, "run_seconds = 60 }", "run_seconds = 60 }\n  operation_count = 100", 1)
	_, diags := loadDiags(t, text+`variant "v" {
  `+multiline(`fault "pause" { hosts = ["stor1"]  service = "object-server"  at = 1  for = 1 }`)+`
}
`)
	if !strings.Contains(diags, "run of no fixed length") {
		t.Errorf("operation_count with a fault: %s", diags)
	}
}

func TestFailDiskWarnsWithoutMountCheck(t *testing.T) {
	text := strings.Replace(faultsBase, "mount_check = true", "mount_check = false", 1)
	_, diags := loadDiags(t, text+`variant "v" {
  `+multiline(`fault "fail_disk" { hosts = ["stor1"]  disks = ["d1"]  at = 1  for = 1 }`)+`
}
`)
	if !strings.Contains(diags, "fail_disk without mount_check") {
		t.Errorf("no warning: %s", diags)
	}
}

// multiline turns a one-line block whose attributes are separated by two
// spaces into the lines HCL needs.
func multiline(block string) string {
	return strings.NewReplacer("{ ", "{\n", "  ", "\n", " }", "\n}").Replace(block)
}

func TestShippedFaultTestbeds(t *testing.T) {
	base := "normal+slow_disk servers_per_port=4+slow_disk normal+paused servers_per_port=4+paused"
	want := map[string]string{
		"../../testbeds/distro/faults-distro.hcl": base + " fail_disk stopped partitioned slow_link rebalance",
		"../../testbeds/lab/faults-lab.hcl":       base,
	}
	for _, f := range []string{"../../testbeds/distro/faults-distro.hcl", "../../testbeds/lab/faults-lab.hcl"} {
		tb, diags := Load(f, LoadOptions{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", f, diags.Error())
		}
		var names []string
		for _, v := range tb.Variants {
			names = append(names, v.Name)
			if !v.HasFaults() {
				t.Errorf("%s: variant %s has no fault", f, v.Name)
			}
		}
		if got := strings.Join(names, " "); got != want[f] {
			t.Errorf("%s: variants %s", f, got)
		}
		sd := tb.Variant("servers_per_port=4+slow_disk")
		if s := sd.Faults[0].Services; len(s) != 1 || s[0] != "object-server" || !sd.PortPerDisk("object") || tb.Variant("normal+slow_disk").PortPerDisk("object") {
			t.Errorf("%s: slow disk of %v, port per disk %v", f, s, sd.PortPerDisk("object"))
		}
	}
}

func TestKillOfASystemdUnitWarns(t *testing.T) {
	_, diags := loadFaults(t, "variant \"v\" {\n  "+multiline(`fault "stop" { hosts = ["stor1"]  service = "object-server"  how = "kill"  at = 1  for = 1 }`)+"\n}\n")
	if !strings.Contains(diags, "SIGKILL of a systemd unit") {
		t.Errorf("no warning: %s", diags)
	}
}
