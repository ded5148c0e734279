package plan

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
