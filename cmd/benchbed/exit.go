package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// The exit statuses of every command, the one table of docs/cli.md
// ("Exit status"). A command returns exitCode(exitNo) or a plain error for
// "no", usagef or inputError when it cannot run as asked; the rest is
// decided here, once.
const (
	exitOK          = 0   // success, or the answer is yes
	exitNo          = 1   // the command ran and the answer is no
	exitCannot      = 2   // the command could not run as asked: usage, unreadable input
	exitInterrupted = 130 // interrupted by SIGINT or SIGTERM
)

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

// inputError is an input the command cannot read (no such run, an
// unreadable file): exit 2, err printed. An error that already has a
// status keeps it.
func inputError(err error) error {
	var ex *exitError
	var ue *usageError
	if err == nil || errors.As(err, &ex) || errors.As(err, &ue) {
		return err
	}
	return &exitError{code: exitCannot, msg: err.Error()}
}

// usageError is a command line its command cannot run: an unknown flag, a
// missing or extra argument, a flag's value it refuses. It exits 2 with
// the command's usage line.
type usageError struct {
	cmd *cobra.Command
	err error
}

func (e *usageError) Error() string { return e.err.Error() }

func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usageError of cmd (nil: the command being run) with a
// formatted message.
func usagef(cmd *cobra.Command, format string, a ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, a...)}
}

// applyExitTable makes c and its subcommands follow the table: argument
// and flag errors are usage errors, and an error a command returns
// without a status of its own is a "no" (exit 1).
func applyExitTable(c *cobra.Command) {
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &usageError{cmd: cmd, err: err} })
	if args := c.Args; args != nil {
		c.Args = func(cmd *cobra.Command, a []string) error {
			if err := args(cmd, a); err != nil {
				return &usageError{cmd: cmd, err: err}
			}
			return nil
		}
	}
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, a []string) error { return ranError(run(cmd, a)) }
	}
	for _, sub := range c.Commands() {
		applyExitTable(sub)
	}
}

// ranError gives an error from a command's run its status: its own, or
// exit 1.
func ranError(err error) error {
	var ex *exitError
	var ue *usageError
	if err == nil || errors.As(err, &ex) || errors.As(err, &ue) {
		return err
	}
	return &exitError{code: exitNo, msg: err.Error()}
}

// exitStatus prints err on w and returns its exit status. An error that
// is neither a command's status nor a usage error comes from cobra before
// any command ran (an unknown command, a required flag missing): a usage
// error of cmd, the command cobra found.
func exitStatus(w io.Writer, cmd *cobra.Command, err error) int {
	var ex *exitError
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		if ue.cmd != nil {
			cmd = ue.cmd
		}
	case errors.As(err, &ex):
		if ex.msg != "" {
			fmt.Fprintln(w, "benchbed:", ex.msg)
		}
		return ex.code
	}
	fmt.Fprintln(w, "benchbed:", err)
	if cmd != nil {
		fmt.Fprintf(w, "Usage: %s\nRun '%s --help' for more.\n", cmd.UseLine(), cmd.CommandPath())
	}
	return exitCannot
}
