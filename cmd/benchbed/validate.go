package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/lang"
)

func init() { register(newValidateCmd) }

func newValidateCmd() *cobra.Command {
	var lf *loadFlags
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Parse and check a testbed; diagnostics as FILE:LINE,COL: summary on stderr",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, err := lf.load(cmd, args[0])
			if err == errInvalidTestbed {
				return exitCode(exitNo) // validate's answer: invalid
			} else if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s: testbed %q is valid: %d hosts, %d variants, %d workloads, %d cells\n",
				args[0], tb.Name, len(tb.Hosts), len(tb.Variants), len(tb.Workloads), len(plan.Expand(tb)))
			return err
		},
	}
	lf = addLoadFlags(cmd)
	return cmd
}

// loadFlags are the variable flags of every command that reads a testbed.
type loadFlags struct {
	vars      []string
	varFiles  []string
	acceptNew bool // --accept-new-host-keys, on commands that connect
}

// addLoadFlags adds --var and --var-file to cmd.
// addConnectFlags adds the flags of commands that connect to the hosts.
func (lf *loadFlags) addConnectFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&lf.acceptNew, "accept-new-host-keys", false,
		"record the host keys of hosts not yet in known_hosts (like OpenSSH's accept-new); a changed key is still refused")
}

func addLoadFlags(cmd *cobra.Command) *loadFlags {
	lf := &loadFlags{}
	cmd.Flags().StringArrayVar(&lf.vars, "var", nil, "set a variable: --var name=value (repeatable)")
	cmd.Flags().StringArrayVar(&lf.varFiles, "var-file", nil, "read variables from an HCL or JSON file (repeatable)")
	return lf
}

// errInvalidTestbed is load's error for a testbed that does not validate:
// exit 2 for every command but validate, whose answer it is (exit 1).
var errInvalidTestbed = exitCode(exitCannot)

// load reads the testbed at path with the flags and BENCHBED_VAR_*
// variables and prints its diagnostics (warnings too) on cmd's stderr. Its
// error is a usage error for a malformed --var, an inputError for a file
// it cannot open, errInvalidTestbed for an invalid testbed.
func (lf *loadFlags) load(cmd *cobra.Command, path string) (*plan.Testbed, error) {
	opts := decode.LoadOptions{Vars: map[string]string{}, VarFiles: lf.varFiles, Environ: os.Environ(),
		AcceptNewHostKeys: lf.acceptNew}
	for _, kv := range lf.vars {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, usagef(cmd, "--var %q: want name=value", kv)
		}
		opts.Vars[name] = value
	}
	tb, diags := decode.Load(path, opts)
	if err := lang.WriteDiagnostics(cmd.ErrOrStderr(), tb.Files, tb.MaskDiagnostics(diags)); err != nil {
		return nil, err
	}
	switch {
	case len(diags) == 1 && diags[0].Subject == nil && diags[0].Summary == cannotRead:
		return nil, exitCode(exitCannot)
	case diags.HasErrors():
		return nil, errInvalidTestbed
	}
	return tb, nil
}

// cannotRead is the summary of decode.Load's one diagnostic for a file it
// cannot read.
const cannotRead = "Cannot read testbed file"
