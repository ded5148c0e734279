package cluster

import (
	"context"
	"fmt"

	"benchbed/remote"
	"benchbed/results/rundir"
)

// envSysctls are the kernel settings that matter to a Swift benchmark.
var envSysctls = []string{
	"net.core.somaxconn", "net.core.netdev_max_backlog", "net.core.rmem_max", "net.core.wmem_max",
	"net.ipv4.tcp_max_syn_backlog", "net.ipv4.tcp_tw_reuse", "net.ipv4.ip_local_port_range",
	"net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_congestion_control", "vm.swappiness",
	"vm.dirty_ratio", "vm.dirty_background_ratio", "vm.vfs_cache_pressure", "fs.file-max",
}

// envScript prints a host's environment in sections; a missing tool
// leaves its section empty rather than failing.
func envScript() string {
	s := `sec() { printf '\n## %s\n' "$1"; }
sec kernel; uname -a
sec cpu; nproc; (lscpu 2>/dev/null || grep -m1 'model name' /proc/cpuinfo) | grep -iE '^(model name|socket|core|thread|cpu\(s\)|cpu max mhz|numa node\(s\))'
sec memory; grep -E '^(MemTotal|SwapTotal|HugePages_Total)' /proc/meminfo
sec disks; lsblk -o NAME,SIZE,ROTA,TYPE,MODEL,MOUNTPOINT 2>/dev/null || cat /proc/partitions
sec mounts; grep -E ' /srv| /$' /proc/mounts
sec swift; /usr/bin/python3 -c 'import swift; print("swift", swift.__version__)' 2>&1 | tail -n 1
sec python; /usr/bin/python3 --version 2>&1
sec limits; echo "nofile $(ulimit -n)"
sec sysctl
`
	for _, k := range envSysctls {
		s += "echo \"" + k + " = $(cat /proc/sys/" + sysctlPath(k) + " 2>/dev/null | tr '\\t' ' ')\"\n"
	}
	return s
}

func sysctlPath(k string) string {
	out := []byte(k)
	for i, c := range out {
		if c == '.' {
			out[i] = '/'
		}
	}
	return string(out)
}

// CaptureEnv records the environment of every host (kernel, CPU model and
// count, memory, disks, Swift version, the sysctls that matter) in the run
// directory as env/<host>.txt.
func CaptureEnv(ctx context.Context, r Runner, run *rundir.Run, hosts []string) error {
	script := envScript()
	return r.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		res, err := r.Run(remote.Quiet(ctx), host, script)
		if err != nil {
			return fmt.Errorf("%s: capturing the environment: %w", host, err)
		}
		return run.WriteEnv(host, res.Stdout)
	}).Err()
}
