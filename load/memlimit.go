package load

import (
	"os"
	"runtime"
	"runtime/debug"

	"benchbed/results"
)

// SetMemoryLimit bounds the Go runtime's memory for a process that runs
// users concurrent users (24 MiB plus 12 KiB a user, plus a fill run's
// buckets; fill may be nil) unless GOMEMLIMIT is set, so that the garbage
// of a fast run is collected before it inflates the resident set. It
// returns a function that restores the previous limit. Commands call it; the library never does on its own.
func SetMemoryLimit(users int, fill *results.FillSpec) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := 24<<20 + int64(max(users, 1))*12<<10
	if fill != nil {
		limit += fill.MemoryBytes()
	}
	prev := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}

// Procs is the number of Go processors (GOMAXPROCS) a load process of
// users users should use: one per 1024 users, at most half the CPUs, at
// least one. One processor drives tens of thousands of requests a second;
// more of them on shared cores cost CPU in cross-thread wake-ups (measured
// on a 2-core machine shared with the server: 35 us of CPU per 64 KiB GET
// with one, 46-50 us with two).
func Procs(users int) int {
	return max(1, min(runtime.NumCPU()/2, (users+1023)/1024))
}

// SetProcs sets GOMAXPROCS to n (Procs when n <= 0) unless the GOMAXPROCS
// variable is set, and returns a function that restores the previous value.
// Commands call it; the library never does on its own.
func SetProcs(n, users int) (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	if n <= 0 {
		n = Procs(users)
	}
	prev := runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(prev) }
}
