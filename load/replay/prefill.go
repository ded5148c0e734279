package replay

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"benchbed/load"
	"benchbed/plan/proxylog"
)

// ensureContainers creates the replay's containers.
func ensureContainers(ctx context.Context, cfg *Config) error {
	for i := range cfg.Containers {
		name := cfg.Base + "_" + fmt.Sprintf("%06d", i)
		o := cfg.Client.Do(ctx, &load.Request{Method: http.MethodPut, Container: name}, time.Now())
		if !o.OK() {
			return fmt.Errorf("replay: PUT container %s: %s", name, errorKey(o))
		}
	}
	return nil
}

// errorKey says what went wrong with an outcome.
func errorKey(o load.Outcome) string {
	if o.Err != nil {
		return o.Err.Error()
	}
	return fmt.Sprintf("HTTP %d", o.Status)
}

// prefill is the first pass: every object whose first logged request that
// succeeded reads it (GET, HEAD, DELETE, POST) rather than PUTs it is put,
// with its logged size (a GET's bytes_sent; 0 when only a HEAD or DELETE
// tells of it). Two Bloom filters, of the objects written and of those
// put, keep memory fixed.
func prefill(ctx context.Context, cfg *Config) (int64, error) {
	r, err := proxylog.Open(cfg.Template, cfg.Logs...)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	written, queued := newBloom(), newBloom()
	puts := make(chan load.Request, cfg.Users)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var n int64
	var firstErr error
	for range cfg.Users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for req := range puts {
				o := cfg.Client.Do(ctx, &req, time.Now())
				mu.Lock()
				n++
				if !o.OK() && firstErr == nil {
					firstErr = fmt.Errorf("replay: prefill PUT %s/%s: %s", req.Container, req.Object, errorKey(o))
				}
				mu.Unlock()
			}
		}()
	}
	for rec, ok := r.Next(); ok && ctx.Err() == nil; rec, ok = r.Next() {
		if !rec.Client() || rec.Kind != proxylog.KindObject || rec.Status/100 != 2 {
			continue
		}
		key := rec.Key()
		switch {
		case rec.Method == http.MethodPut:
			written.add(key)
		case rec.Method == http.MethodPost || rec.Method == http.MethodGet || rec.Method == http.MethodHead || rec.Method == http.MethodDelete:
			if written.has(key) || queued.has(key) {
				continue
			}
			queued.add(key)
			req := load.Request{Method: http.MethodPut}
			req.Container, req.Object = cfg.Name(key)
			if rec.Method == http.MethodGet && rec.Status == http.StatusOK {
				req.Size = rec.BytesSent
			}
			puts <- req
		}
	}
	close(puts)
	wg.Wait()
	if ctx.Err() != nil {
		return n, ctx.Err()
	}
	if firstErr != nil {
		return n, firstErr
	}
	return n, r.Err()
}
