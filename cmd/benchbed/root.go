package main

import (
	"github.com/spf13/cobra"
)

// subcommands holds the constructors registered by each subcommand's file in
// its init function, so that adding a subcommand touches only its own file.
var subcommands []func() *cobra.Command

// register adds a subcommand constructor; call it from init.
func register(f func() *cobra.Command) { subcommands = append(subcommands, f) }

// globalFlags are the flags of every command.
type globalFlags struct {
	noColor bool // --no-color: diagnostics without colour even on a terminal
}

// global holds the global flags of the command being run.
var global globalFlags

func newRootCmd() *cobra.Command {
	global = globalFlags{}
	root := &cobra.Command{
		Use:           "benchbed",
		Short:         "Declarative test beds for storage benchmarks (OpenStack Swift)",
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("benchbed {{.Version}}\n")
	root.PersistentFlags().BoolVar(&global.noColor, "no-color", false,
		"print diagnostics without colour (also when NO_COLOR is set; colour only on a terminal)")
	for _, f := range subcommands {
		root.AddCommand(f())
	}
	applyExitTable(root)
	return root
}
