package importer

import (
	"context"
	"fmt"
	"sync"

	"benchbed/remote"
)

// fakeRunner answers every command on a host with its canned output; a
// host without one fails as unreachable.
type fakeRunner struct {
	mu   sync.Mutex
	out  map[string]string
	runs int
}

func (f *fakeRunner) Run(_ context.Context, host, _ string) (*remote.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs++
	out, ok := f.out[host]
	if !ok {
		return nil, fmt.Errorf("dial %s: connection refused", host)
	}
	return &remote.Result{Stdout: []byte(out)}, nil
}

func (f *fakeRunner) FanOut(ctx context.Context, hosts []string, fn func(ctx context.Context, host string) error) *remote.Outcomes {
	return remote.FanOut(ctx, 4, hosts, fn)
}
