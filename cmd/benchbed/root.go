package main

import (
	"github.com/spf13/cobra"
)

// subcommands holds the constructors registered by each subcommand's file in
// its init function, so that adding a subcommand touches only its own file.
var subcommands []func() *cobra.Command

// register adds a subcommand constructor; call it from init.
func register(f func() *cobra.Command) { subcommands = append(subcommands, f) }

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "benchbed",
		Short:         "Declarative test beds for storage benchmarks (OpenStack Swift)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, f := range subcommands {
		root.AddCommand(f())
	}
	return root
}
