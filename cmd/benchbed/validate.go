package main

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"benchbed/plan"
	"benchbed/plan/decode"
)

func init() { register(newValidateCmd) }

func newValidateCmd() *cobra.Command {
	var lf *loadFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Parse and check a testbed; diagnostics as FILE:LINE,COL: summary on stderr",
		Long: "Parses and checks a testbed. Each problem is printed once on stderr: FILE:LINE,COL: summary,\n" +
			"then the source line with the range underlined and what to do. --json prints them on stdout\n" +
			"instead, in the shape of Terraform's validate -json. Exit status: 0 valid, 1 invalid, 2 the\n" +
			"file cannot be read or a usage error.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return validateAsJSON(cmd, lf, args[0])
			}
			tb, err := lf.load(cmd, args[0])
			if err == errInvalidTestbed {
				return exitCode(exitNo) // validate's answer: invalid
			} else if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s: testbed %q is valid: %d hosts, %d variants, %d workloads, %d cells\nfiles read: %s\n",
				args[0], tb.Name, len(tb.Hosts), len(tb.Variants), len(tb.Workloads), len(plan.Expand(tb)), strings.Join(tb.Sources, ", "))
			return err
		},
	}
	lf = addLoadFlags(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the diagnostics on stdout as JSON (Terraform's validate -json shape)")
	return cmd
}

// validateAsJSON is validate --json: the diagnostics as validateJSON on
// stdout, validate's status.
func validateAsJSON(cmd *cobra.Command, lf *loadFlags, path string) error {
	tb, diags, err := lf.loadDiags(cmd, path)
	if err != nil {
		return err
	}
	if err := writeValidateJSON(cmd.OutOrStdout(), diags, maskedFiles(tb), tb.Mask); err != nil {
		return err
	}
	if err := loadStatus(diags); err == errInvalidTestbed {
		return exitCode(exitNo)
	} else if err != nil {
		return err
	}
	return nil
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
// error is a usage error for a malformed --var, exit 2 for a file it
// cannot read, errInvalidTestbed for an invalid testbed.
func (lf *loadFlags) load(cmd *cobra.Command, path string) (*plan.Testbed, error) {
	tb, diags, err := lf.loadDiags(cmd, path)
	if err != nil {
		return nil, err
	}
	if err := newDiagWriter(tb, cmd.ErrOrStderr()).write(cmd.ErrOrStderr(), diags); err != nil {
		return nil, err
	}
	return tb, loadStatus(diags)
}

// loadDiags reads the testbed at path and returns it with its
// diagnostics, masked and refined for users' eyes; its error is a usage
// error for a malformed --var.
func (lf *loadFlags) loadDiags(cmd *cobra.Command, path string) (*plan.Testbed, hcl.Diagnostics, error) {
	opts := decode.LoadOptions{Vars: map[string]string{}, VarFiles: lf.varFiles, Environ: os.Environ(),
		AcceptNewHostKeys: lf.acceptNew}
	for _, kv := range lf.vars {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, nil, usagef(cmd, "--var %q: want name=value", kv)
		}
		opts.Vars[name] = value
	}
	tb, diags := decode.Load(path, opts)
	return tb, refineDiagnostics(tb.MaskDiagnostics(diags), tb.Files), nil
}

// loadStatus is load's error for diags: nil without errors, exit 2 for a
// file it could not read, else errInvalidTestbed.
func loadStatus(diags hcl.Diagnostics) error {
	switch {
	case len(diags) == 1 && diags[0].Subject == nil && diags[0].Summary == cannotRead:
		return exitCode(exitCannot)
	case diags.HasErrors():
		return errInvalidTestbed
	}
	return nil
}

// cannotRead is the summary of decode.Load's one diagnostic for a file it
// cannot read.
const cannotRead = "Cannot read testbed file"
