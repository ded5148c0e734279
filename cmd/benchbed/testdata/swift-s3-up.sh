#!/bin/sh
# swift-s3-up.sh DIR PROXY_PORT OBJ_PORT CONT_PORT ACCT_PORT MEMCACHE_PORT
# A one-node Swift on 127.0.0.1 with s3api and tempauth (Debian's packages),
# everything under DIR: confs, rings, devices, logs. Run it as root inside
# `unshare --mount --propagation private`: it binds DIR/etc over /etc/swift
# (swift.conf's path is fixed) for this namespace only, starts memcached and
# the four servers, writes their pids to DIR/pids and waits; a SIGTERM to it
# ends them (Swift's servers leave the caller's process group, so that
# ending the group alone would leave them running). Two replication
# policies: gold (0, default) and silver (1).
# Access key test:tester, secret testing; region us-east-1 (s3api's default).
set -eu
dir=$1 proxy=$2 obj=$3 cont=$4 acct=$5 mc=$6
etc=$dir/etc
mkdir -p "$etc" "$dir/srv/d1" "$dir/cache" "$dir/run"
cat > "$etc/swift.conf" <<CONF
[swift-hash]
swift_hash_path_suffix = benchbed-s3-test
swift_hash_path_prefix = benchbed
[storage-policy:0]
name = gold
default = yes
[storage-policy:1]
name = silver
CONF
common="bind_ip = 127.0.0.1
user = root
swift_dir = /etc/swift
devices = $dir/srv
mount_check = false
disable_fallocate = true
workers = 1
log_level = INFO"
for s in object:$obj container:$cont account:$acct; do
  name=${s%%:*} port=${s#*:}
  cat > "$etc/$name-server.conf" <<CONF
[DEFAULT]
$common
bind_port = $port
[pipeline:main]
pipeline = healthcheck $name-server
[app:$name-server]
use = egg:swift#$name
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:recon]
use = egg:swift#recon
recon_cache_path = $dir/cache
CONF
done
cat > "$etc/proxy-server.conf" <<CONF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $proxy
user = root
swift_dir = /etc/swift
workers = 1
log_level = INFO
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache s3api tempauth slo dlo proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
# Bounds of a hang, not of a busy machine: Swift's 0.5 s connect and 10 s
# node timeouts would make a loaded machine's slow object server a 503.
conn_timeout = 10
node_timeout = 120
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$mc
memcache_max_connections = 64
[filter:s3api]
use = egg:swift#s3api
[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
CONF
cd "$etc"
for ring in object:$obj object-1:$obj container:$cont account:$acct; do
  name=${ring%%:*} port=${ring#*:}
  swift-ring-builder "$name.builder" create 4 1 1 >/dev/null
  swift-ring-builder "$name.builder" add "r1z1-127.0.0.1:$port/d1" 100 >/dev/null
  swift-ring-builder "$name.builder" rebalance >/dev/null || [ $? -eq 1 ]
done
mount --bind "$etc" /etc/swift
pids=
stop() {
  kill $pids 2>/dev/null
  wait
  exit 0
}
trap stop TERM INT
memcached -u root -l 127.0.0.1 -p "$mc" -U 0 -m 64 > "$dir/memcached.log" 2>&1 &
pids="$pids $!"
for s in object container account proxy; do
  "/usr/bin/swift-$s-server" "/etc/swift/$s-server.conf" -v > "$dir/$s.log" 2>&1 &
  pids="$pids $!"
done
echo "$pids" > "$dir/pids"
echo up
wait
