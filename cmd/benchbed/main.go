package main

import (
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI with args and returns the process exit code, one
// of the table in exit.go.
func run(args []string) int {
	root := newRootCmd()
	root.SetArgs(terraformStyle(args))
	cmd, err := root.ExecuteC()
	return exitStatus(os.Stderr, cmd, err)
}

// terraformStyle accepts Terraform's single-dash -var and -var-file (with a
// separate value or "="), which cobra would read as bundled short flags.
func terraformStyle(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "--" {
			copy(out[i:], args[i:])
			break
		}
		for _, f := range []string{"-var", "-var-file"} {
			if a == f || strings.HasPrefix(a, f+"=") {
				a = "-" + a
				break
			}
		}
		out[i] = a
	}
	return out
}
