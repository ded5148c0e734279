package faults

import (
	"strings"
	"testing"

	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// scriptedHCL has a stop fault of a direct service on two hosts: its undo
// starts the service with the script Scripted is given.
const scriptedHCL = `testbed "scripted" {}
host "proxy1" {
  address = "10.0.0.1"
  roles   = ["proxy"]
}
host "proxy2" {
  address = "10.0.0.2"
  roles   = ["proxy"]
}
host "client1" {
  address = "10.0.0.9"
  roles   = ["client"]
}
service "proxy-server" {
  role    = "proxy"
  manager = "direct"
}
variant "stop" {
  fault "stop" {
    hosts   = ["proxy1", "proxy2"]
    service = "proxy-server"
    how     = "kill"
    at      = 10
    for     = 20
  }
}
workload "get" {
  scenario    = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 60 }
  storage_url = "http://10.0.0.1:8080/v1/AUTH_a"
  token       = "t"
}
`

// TestScripted: every target is built unless keep refuses it, a direct
// service's undo runs the start script start gives for its host (none
// given: the build's error), and errors name the fault and the variant.
func TestScripted(t *testing.T) {
	tb := plantest.Load(t, scriptedHCL, decode.LoadOptions{}, nil)
	v := tb.Variant("stop")
	start := func(t Target) string { return "start-on-" + t.Host }
	hs, err := Scripted(tb, v, 0, nil, start)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 {
		t.Fatalf("%d targets, want proxy1 and proxy2", len(hs))
	}
	for _, h := range hs {
		if h.Target.Service.Start != "start-on-"+h.Target.Host || !strings.Contains(h.Scripts.Undo, "start-on-"+h.Target.Host) {
			t.Errorf("%s: Start %q, undo %q: want its own start script in the undo", h.Target.Host, h.Target.Service.Start, h.Scripts.Undo)
		}
	}
	keep := func(t Target) bool { return t.ID == hs[1].Target.ID }
	kept, err := Scripted(tb, v, 0, keep, start)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 1 || kept[0].Target.Host != "proxy2" {
		t.Errorf("kept %+v, want proxy2 alone", kept)
	}
	if _, err := Scripted(tb, v, 0, nil, nil); err == nil || !strings.Contains(err.Error(), "fault 0 of variant stop: proxy1: ") || !strings.Contains(err.Error(), "no start script") {
		t.Errorf("a direct service's stop without start: error %v, want the build's, naming the fault, variant and host", err)
	}
	if _, err := Scripted(tb, v, 3, nil, start); err == nil || !strings.Contains(err.Error(), "fault 3 of variant stop") {
		t.Errorf("fault 3 of a variant with one: error %v, want it named", err)
	}
}
