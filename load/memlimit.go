package load

import (
	"os"
	"runtime/debug"
)

// SetMemoryLimit bounds the Go runtime's memory for a process that runs
// users concurrent users (24 MiB plus 12 KiB a user) unless GOMEMLIMIT is
// set, so that the garbage of a fast run is collected before it inflates
// the resident set. It returns a function that restores the previous
// limit. Commands call it; the library never does on its own.
func SetMemoryLimit(users int) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(24<<20 + int64(max(users, 1))*12<<10)
	return func() { debug.SetMemoryLimit(prev) }
}
