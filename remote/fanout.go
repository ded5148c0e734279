package remote

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
)

// HostResult is what one host's function returned in a FanOut.
type HostResult struct {
	Host     string
	Err      error // nil when the host succeeded
	Duration time.Duration
}

// Outcomes are what a FanOut did: one result per host, in the order the
// hosts were given.
type Outcomes struct {
	Results []HostResult
}

// Failed returns the hosts whose function failed, in order.
func (s *Outcomes) Failed() []string {
	var out []string
	for _, r := range s.Results {
		if r.Err != nil {
			out = append(out, r.Host)
		}
	}
	return out
}

// Err is nil when every host succeeded; otherwise it names the failed hosts
// and wraps every host's error (errors.Is and errors.As see them).
func (s *Outcomes) Err() error {
	failed := s.Failed()
	if len(failed) == 0 {
		return nil
	}
	errs := []error{fmt.Errorf("%d of %d hosts failed: %s", len(failed), len(s.Results), strings.Join(failed, ", "))}
	for _, r := range s.Results {
		if r.Err != nil {
			errs = append(errs, r.Err)
		}
	}
	return errors.Join(errs...)
}

// FanOut calls fn for every host, at most Parallelism at once, and waits
// for all. A failing host does not stop the others; cancel ctx for that.
// Hosts not started when ctx ends get ctx's error. A panic in fn becomes
// that host's error.
func (p *Pool) FanOut(ctx context.Context, hosts []string, fn func(ctx context.Context, host string) error) *Outcomes {
	return FanOut(ctx, p.parallelism, hosts, fn)
}

// FanOut is Pool.FanOut with at most limit calls at once (limit <= 0: no
// limit), for callers that reach hosts through something other than a Pool.
func FanOut(ctx context.Context, limit int, hosts []string, fn func(ctx context.Context, host string) error) *Outcomes {
	s := &Outcomes{Results: make([]HostResult, len(hosts))}
	var g errgroup.Group
	if limit > 0 {
		g.SetLimit(limit)
	}
	for i, h := range hosts {
		s.Results[i].Host = h
		g.Go(func() error {
			start := time.Now()
			s.Results[i].Err = callHost(ctx, h, fn)
			s.Results[i].Duration = time.Since(start)
			return nil
		})
	}
	g.Wait()
	return s
}

// FanOutIndexes calls fn for every index in idx (of a slice of things
// other than hosts: a host's daemons, the agents to start), at most limit
// at once, as FanOut does, and returns the first failure in idx's order,
// nil when every call succeeded. As in FanOut, a call not started when
// ctx ends fails with ctx's error, and a panic in fn is its call's error
// (each named by its index).
func FanOutIndexes(ctx context.Context, limit int, idx []int, fn func(ctx context.Context, i int) error) error {
	keys := make([]string, len(idx))
	for k, i := range idx {
		keys[k] = strconv.Itoa(i)
	}
	sum := FanOut(ctx, limit, keys, func(ctx context.Context, key string) error {
		i, _ := strconv.Atoi(key)
		return fn(ctx, i)
	})
	for _, r := range sum.Results {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

func callHost(ctx context.Context, host string, fn func(context.Context, string) error) (err error) {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: not started: %w", host, err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: panic: %v", host, r)
		}
	}()
	return fn(ctx, host)
}
