package sweep

import (
	"benchbed/internal/sweep/summary"
	"benchbed/remote"
)

// failedStep returns the step runner's Failed hook for cell ("" = the
// run-wide steps): it appends the details of err's remote commands to
// summary.ErrorLog and says where they are.
func (s *Sweeper) failedStep(cell string) func(name, host string, err error) {
	return func(name, host string, err error) {
		ees := remote.ExitErrors(err)
		p, perr := s.run.Path(summary.ErrorLog)
		if len(ees) == 0 || perr != nil {
			return
		}
		where := name
		if cell != "" {
			where = "cell " + cell + ", " + name
		}
		if host != "" {
			where += " on " + host
		}
		details := make([]string, len(ees))
		for i, ee := range ees {
			details[i] = s.Mask(ee.Detail())
		}
		if err := summary.AppendErrorLog(p, where, details); err != nil {
			s.logf("cannot write %s: %v", p, err)
			return
		}
		s.logf("%s failed: the commands and their whole output are in %s", where, p)
	}
}
