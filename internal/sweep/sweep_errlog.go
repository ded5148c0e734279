package sweep

import (
	"fmt"
	"os"
	"time"

	"benchbed/remote"
)

// ErrorLog is the run directory's file that keeps, for each step that
// failed on a host command, the whole command (a script), its stdout and
// its stderr's end, masked. The terminal and the journal get one line.
const ErrorLog = "errors.log"

// failedStep returns the step runner's Failed hook for cell ("" = the
// run-wide steps): it appends the details of err's remote commands to
// ErrorLog and says where they are.
func (s *Sweeper) failedStep(cell string) func(name, host string, err error) {
	return func(name, host string, err error) {
		ees := remote.ExitErrors(err)
		if len(ees) == 0 {
			return
		}
		p, perr := s.run.Path(ErrorLog)
		if perr != nil {
			return
		}
		f, perr := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if perr != nil {
			s.logf("cannot write %s: %v", p, perr)
			return
		}
		defer f.Close()
		where := name
		if cell != "" {
			where = "cell " + cell + ", " + name
		}
		if host != "" {
			where += " on " + host
		}
		fmt.Fprintf(f, "=== %s: step %s failed\n", time.Now().UTC().Format(time.RFC3339), where)
		for _, ee := range ees {
			fmt.Fprint(f, s.Mask(ee.Detail()))
		}
		s.logf("%s failed: the commands and their whole output are in %s", where, p)
	}
}
