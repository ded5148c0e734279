package importer

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Severity of a diagnostic.
type Severity int

// Severities, least first. An Error is something the testbed could not
// describe, or hosts that disagree: the command exits 1.
const (
	Note Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	return [...]string{"note", "warning", "error"}[s]
}

// Diag is one thing the import tells its user.
type Diag struct {
	Severity Severity
	Host     string // the host it is about ("" = the cluster)
	Message  string
}

func (d Diag) String() string {
	if d.Host == "" {
		return d.Severity.String() + ": " + d.Message
	}
	return d.Severity.String() + ": " + d.Host + ": " + d.Message
}

// Diags are an import's diagnostics, in the order found.
type Diags []Diag

func (ds *Diags) add(sev Severity, host, format string, args ...any) {
	*ds = append(*ds, Diag{Severity: sev, Host: host, Message: fmt.Sprintf(format, args...)})
}

// HasErrors reports whether an Error is among them.
func (ds Diags) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Write prints them, one a line, each prefixed with prefix.
func (ds Diags) Write(w io.Writer, prefix string) error {
	for _, d := range ds {
		if _, err := fmt.Fprintln(w, prefix+d.String()); err != nil {
			return err
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// parseError is a conf's parse error without the quoted line, which may
// hold a secret the import never learnt was one: "FILE:LINE: not INI".
func parseError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i >= 0 {
		return msg[:i] + ": not INI as Swift reads it (the line is not quoted here: it may hold a secret)"
	}
	return "not INI as Swift reads it"
}
