package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
)

// cleanup deletes every object the run created and did not delete (and
// those an update put back after their delete), users at a time. A 404 is
// fine (a failed create, or an expired object).
func cleanup(ctx context.Context, c *Client, o *objects, users int) error {
	var errs []error
	for ci, cl := range o.classes {
		lo, hi := cl.created.left()
		revived := cl.created.revivedIndexes()
		var failed atomic.Int64
		_ = parallel(int(hi-lo)+len(revived), users, func(i int) error {
			idx := lo + int64(i)
			if i >= int(hi-lo) {
				idx = revived[i-int(hi-lo)]
			}
			out := o.send(c.api(), clientDoer(ctx, c), ci, &Request{Method: http.MethodDelete, Container: o.container(ci, idx),
				Object: o.name(ci, idx)})
			if !out.OK() && out.Status != http.StatusNotFound {
				failed.Add(1)
			}
			return nil
		})
		if n := failed.Load(); n > 0 {
			errs = append(errs, fmt.Errorf("load: %d objects of size %q created by the run could not be deleted",
				n, cl.size.Name))
		}
	}
	return errors.Join(errs...)
}

// restoreInitial puts back the initial objects the run's deletes took (a
// size drawn in the class's range, as ssbench's initial files have), users
// at a time, and returns how many it put.
func restoreInitial(ctx context.Context, c *Client, o *objects, users int) (int64, error) {
	var errs []error
	var put atomic.Int64
	for ci, cl := range o.classes {
		holes := o.holes(ci)
		var failed atomic.Int64
		_ = parallel(len(holes), users, func(i int) error {
			idx := holes[i]
			rng := rand.New(rand.NewPCG(uint64(idx), uint64(ci)))
			out := o.send(c.api(), clientDoer(ctx, c), ci, &Request{Method: http.MethodPut, Container: o.container(ci, idx),
				Object: o.name(ci, idx), Size: o.size(ci, rng)})
			if out.OK() {
				put.Add(1)
			} else {
				failed.Add(1)
			}
			return nil
		})
		if n := failed.Load(); n > 0 {
			errs = append(errs, fmt.Errorf("load: %d initial objects of size %q deleted by the run could not be put back (prefill puts them)",
				n, cl.size.Name))
		}
	}
	return put.Load(), errors.Join(errs...)
}

// parallel calls fn(0..n-1) from at most width goroutines and returns the
// first error (the others still run).
func parallel(n, width int, fn func(i int) error) error {
	width = max(1, min(width, n))
	var next atomic.Int64
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range width {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}
