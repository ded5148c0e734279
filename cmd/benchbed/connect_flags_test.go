package main

import (
	"testing"

	"benchbed/internal/cluster"

	"github.com/spf13/cobra"
)

func TestAcceptNewHostKeysReachesThePool(t *testing.T) {
	for _, accept := range []bool{false, true} {
		cmd := &cobra.Command{Use: "x"}
		lf := addLoadFlags(cmd)
		lf.addConnectFlags(cmd)
		args := []string{}
		if accept {
			args = append(args, "--accept-new-host-keys")
		}
		if err := cmd.ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		tb, err := lf.load(cmd, "../../testbeds/lab/lab.hcl")
		if err != nil {
			t.Fatal("lab.hcl did not load:", err)
		}
		for _, c := range cluster.PoolConfigs(tb) {
			if c.AcceptNewHostKeys != accept {
				t.Fatalf("--accept-new-host-keys=%v: host %s has AcceptNewHostKeys=%v", accept, c.Name, c.AcceptNewHostKeys)
			}
		}
	}
}
