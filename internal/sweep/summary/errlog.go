package summary

import (
	"fmt"
	"os"
	"time"
)

// ErrorLog is the run directory's file that keeps, for each step that
// failed on a host command, the whole command (a script), its stdout and
// its stderr's end, masked. The terminal and the journal get one line.
const ErrorLog = "errors.log"

// AppendErrorLog appends to the error log at path one entry for the step
// that failed at where: a header with the time, then each (already masked)
// detail of its commands.
func AppendErrorLog(path, where string, details []string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "=== %s: step %s failed\n", time.Now().UTC().Format(time.RFC3339), where)
	for _, d := range details {
		fmt.Fprint(f, d)
	}
	return f.Close()
}
