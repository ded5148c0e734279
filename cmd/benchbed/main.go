package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI with args and returns the process exit code.
func run(args []string) int {
	root := newRootCmd()
	root.SetArgs(terraformStyle(args))
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			fmt.Fprintln(os.Stderr, "benchbed:", ex.msg)
		}
		return ex.code
	}
	fmt.Fprintln(os.Stderr, "benchbed:", err)
	return 1
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

// exitError carries an exit code out of a subcommand. An empty msg means the
// subcommand already printed its diagnostics.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return fmt.Sprintf("exit %d: %s", e.code, e.msg) }

// exitCode returns an error that makes benchbed exit with code without
// printing anything more.
func exitCode(code int) error { return &exitError{code: code} }
