package faults

import (
	"errors"
	"fmt"
	"strings"

	"benchbed/remote"
)

// needNetAdmin fails unless the script runs with CAP_NET_ADMIN (a
// container's root may lack it: tc and nft would answer "Operation not
// permitted").
func needNetAdmin(kind string) string {
	return `cap=$(awk '/^CapEff/ {print $2}' /proc/self/status)
[ $(( 0x$cap >> 12 & 1 )) = 1 ] || { ` + fail(kind, "no CAP_NET_ADMIN here (a container without --capability=CAP_NET_ADMIN?)") + `; }
`
}

// nftTable and ipChain name the fault's rules.
func nftTable(id string) string { return "benchbed_" + strings.ReplaceAll(id, "-", "_") }
func ipChain(id string) string  { return "BB-" + id }

// partition drops TCP to the host's Swift ports with nftables (a table of
// its own), or iptables (a chain of its own) where nft is missing.
func partition(t Target) (Scripts, error) {
	if len(t.Ports) == 0 {
		return Scripts{}, errors.New("no port to drop")
	}
	kind := t.Fault.Kind
	table, chain := nftTable(t.ID), ipChain(t.ID)
	var ports []string
	for _, p := range t.Ports {
		ports = append(ports, fmt.Sprint(p))
	}
	var ipt []string
	for i := 0; i < len(ports); i += 15 { // multiport takes at most 15 ports
		ipt = append(ipt, fmt.Sprintf("iptables -A %s -p tcp -m multiport --dports %s -j DROP", chain, strings.Join(ports[i:min(i+15, len(ports))], ",")))
	}
	apply := fmt.Sprintf(`if command -v nft >/dev/null 2>&1; then
  nft -f - <<NFT
table inet %[1]s {
  chain input { type filter hook input priority -10; policy accept; tcp dport { %[2]s } drop; }
}
NFT
else
  iptables -N %[3]s && %[4]s && iptables -I INPUT 1 -j %[3]s
fi
`, table, strings.Join(ports, ", "), chain, strings.Join(ipt, " && "))
	undo := fmt.Sprintf(`if command -v nft >/dev/null 2>&1 && nft list table inet %[1]s >/dev/null 2>&1; then nft delete table inet %[1]s; fi
if command -v iptables >/dev/null 2>&1 && iptables -S %[2]s >/dev/null 2>&1; then
  while iptables -D INPUT -j %[2]s 2>/dev/null; do :; done
  iptables -F %[2]s && iptables -X %[2]s
fi
true
`, table, chain)
	check := fmt.Sprintf(`if command -v nft >/dev/null 2>&1 && nft list table inet %[1]s >/dev/null 2>&1; then %[3]s; fi
if command -v iptables >/dev/null 2>&1 && iptables -S %[2]s >/dev/null 2>&1; then %[4]s; fi
`, table, chain, fail(kind, "nft table "+table+" is left"), fail(kind, "iptables chain "+chain+" is left"))
	probe := needNetAdmin(kind) + `command -v nft >/dev/null 2>&1 || command -v iptables >/dev/null 2>&1 || { ` +
		fail(kind, "neither nft nor iptables is installed (Debian: nftables or iptables)") + `; }
`
	return Scripts{Probe: probe, Apply: apply, Undo: undo, Check: check}, nil
}

// ifaceScript sets ifc to the fault's interface: the one given, else the
// one that holds the host's address.
func ifaceScript(t Target) string {
	if t.Fault.Interface != "" {
		return "ifc=" + remote.Quote(t.Fault.Interface) + "\n"
	}
	return fmt.Sprintf("ifc=$(cat \"$state.ifc\" 2>/dev/null || ip -o addr show to %s | awk '{print $2; exit}')\n", remote.Quote(t.Address))
}

// slowLink rate-limits what the host sends through its interface with tbf
// (GET bodies, replication out). Incoming traffic is not limited: that
// needs a policer (act_police) or an ifb device, which a lab's kernel may
// lack (this machine's has neither); netem is not needed.
func slowLink(t Target) (Scripts, error) {
	f := t.Fault
	if f.Rate == "" {
		return Scripts{}, errors.New("no rate")
	}
	if f.Interface == "" && t.Address == "" {
		return Scripts{}, errors.New("no interface and no address to find it by")
	}
	rate := remote.Quote(f.Rate)
	ifc := ifaceScript(t)
	found := fmt.Sprintf("[ -n \"$ifc\" ] && ip link show dev \"$ifc\" >/dev/null 2>&1 || { %s; }\n",
		fail(f.Kind, "no interface "+or(f.Interface, "holding "+t.Address)))
	probe := needNetAdmin(f.Kind) + "command -v tc >/dev/null 2>&1 || { " + fail(f.Kind, "no tc (Debian: iproute2)") + "; }\n" + ifc + found +
		`tc qdisc show dev "$ifc" root | grep -q '^qdisc [a-z_]* 0: ' || { ` + fail(f.Kind, "$ifc has a root qdisc of its own; it is not replaced") + `; }
`
	apply := ifc + found + fmt.Sprintf(`echo "$ifc" > "$state.ifc"
tc qdisc add dev "$ifc" root handle 1: tbf rate %s burst 64kb latency 200ms
`, rate)
	undo := ifc + `if [ -n "$ifc" ]; then
  if tc qdisc show dev "$ifc" root | grep -q '^qdisc tbf 1: '; then tc qdisc del dev "$ifc" root; fi
fi
rm -f "$state.ifc"
`
	check := ifc + `[ -z "$ifc" ] || ! tc qdisc show dev "$ifc" | grep -q '^qdisc tbf 1: ' || { ` +
		fail(f.Kind, "$ifc still has the fault's tbf qdisc") + `; }
`
	return Scripts{Probe: probe, Apply: apply, Undo: undo, Check: check}, nil
}
