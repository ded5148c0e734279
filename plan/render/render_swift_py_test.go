package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"benchbed/plan"
)

// swiftAcceptPy runs Swift's own code on rendered confs, as run_wsgi does up
// to (not including) binding sockets: it builds the rings of the manifest
// with Swift's RingBuilder, then for each check points Swift at the rendered
// swift.conf, reads the server conf with appconfig, validates the hash
// settings, sets up the workers or servers_per_port strategy (which reads
// the rings for this server's ports) and loads the whole paste pipeline
// (every filter and the app are instantiated). It prints one JSON line per
// check.
const swiftAcceptPy = `
import json, os, sys
from swift.common import utils, storage_policy, wsgi
from swift.common.ring import RingBuilder

manifest = json.load(open(sys.argv[1]))
for r in manifest["rings"]:
    b = RingBuilder(r["part_power"], r["replicas"], 1)
    for i, d in enumerate(r["devices"]):
        b.add_dev({"id": i, "region": 1, "zone": d["zone"], "ip": d["ip"], "port": d["port"],
                   "replication_ip": d["ip"], "replication_port": d["port"],
                   "device": d["device"], "weight": d["weight"], "meta": ""})
    b.rebalance(seed=1)
    b.get_ring().save(os.path.join(r["dir"], r["name"] + ".ring.gz"))

for c in manifest["checks"]:
    out = {"conf": c["conf"], "ok": False}
    try:
        utils.SWIFT_CONF_FILE = c["swift_conf"]
        utils.HASH_PATH_SUFFIX = b""
        utils.HASH_PATH_PREFIX = b""
        storage_policy.reload_storage_policies()
        conf, logger, log_name = wsgi._initrp(c["conf"], c["app"])
        spp = int(conf.get("servers_per_port", "0") or 0)
        if spp and c["app"] == "object-server":
            s = wsgi.ServersPerPortStrategy(conf, logger, servers_per_port=spp)
            out["ports"] = sorted(s.cache.all_bind_ports_for_node())
        else:
            s = wsgi.WorkersStrategy(conf, logger)
            out["ports"] = [int(conf["bind_port"])]
            out["workers"] = s.worker_count
        wsgi.loadapp(c["conf"], global_conf={"log_name": log_name})
        utils.config_fallocate_value(conf.get("fallocate_reserve", "1%"))
        out["ok"] = True
    except SystemExit as e:
        out["error"] = "exit: %s" % e
    except Exception as e:
        out["error"] = "%s: %s" % (type(e).__name__, e)
    print(json.dumps(out), flush=True)
`

// swiftCheck is one conf for swiftAcceptPy.
type swiftCheck struct {
	SwiftConf string `json:"swift_conf"`
	Conf      string `json:"conf"`
	App       string `json:"app"`
	want      []int  // the ports Swift must find
	label     string // testbed, variant, host, path
}

type swiftRing struct {
	Dir       string        `json:"dir"`
	Name      string        `json:"name"`
	PartPower int           `json:"part_power"`
	Replicas  float64       `json:"replicas"`
	Devices   []swiftDevice `json:"devices"`
}

type swiftDevice struct {
	IP     string  `json:"ip"`
	Port   int     `json:"port"`
	Device string  `json:"device"`
	Weight float64 `json:"weight"`
	Zone   int     `json:"zone"`
}

type swiftResult struct {
	Conf  string `json:"conf"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Ports []int  `json:"ports"`
}

// runSwift builds the rings and runs the checks in one Python process.
func runSwift(t *testing.T, dir string, rings []swiftRing, checks []swiftCheck) map[string]swiftResult {
	t.Helper()
	manifest, err := json.Marshal(map[string]any{"rings": rings, "checks": checks})
	if err != nil {
		t.Fatal(err)
	}
	mf, script := filepath.Join(dir, "manifest.json"), filepath.Join(dir, "accept.py")
	if err := os.WriteFile(mf, manifest, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(swiftAcceptPy), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(systemPython, script, mf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("swift acceptance script: %v\n%s", err, tail(stderr.String(), 3000))
	}
	res := map[string]swiftResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r swiftResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("script output %q: %v", sc.Text(), err)
		}
		res[r.Conf] = r
	}
	return res
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// ringsFor returns the rings of a layout in dir (small part powers: the
// acceptance test needs their devices and ports, not their size).
func ringsFor(l *plan.Layout, tb *plan.Testbed, dir string) []swiftRing {
	var out []swiftRing
	for _, rl := range l.Rings {
		r := swiftRing{Dir: dir, Name: rl.Ring.Name, PartPower: min(rl.Ring.PartPower, 6), Replicas: rl.Ring.Replicas}
		hosts := map[string]bool{}
		for _, d := range rl.Devices {
			zone := 1
			for i, h := range tb.Hosts {
				if h.Name == d.Host {
					zone = i + 1
				}
			}
			hosts[d.Host] = true
			r.Devices = append(r.Devices, swiftDevice{IP: d.IP, Port: d.Port, Device: d.Name, Weight: d.Weight, Zone: zone})
		}
		r.Replicas = min(r.Replicas, float64(len(r.Devices)))
		if len(r.Devices) > 0 {
			out = append(out, r)
		}
	}
	return out
}
