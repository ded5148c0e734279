package remote

import "sync"

// runState is what a Pool remembers for the run: owners resolved, binaries
// placed. Its size grows with hosts and files, never with
// commands.
type runState struct {
	mu     sync.Mutex
	owners map[string][2]int // host+"\x00"+owner+":"+group -> uid, gid
	bins   map[string]string // host+"\x00"+hash -> remote path
	hashes map[string]string // local path -> sha256 hex
}
