// Package replay replays Swift proxy access logs against a cluster:
// every client object request of the logs, open-loop at its logged time
// (scaled by a speed-up), on an object whose name is a hash of the logged
// one in the benchmark's own containers, after a first pass that puts the
// objects the logs read before writing them with their logged sizes. Each
// operation's latency is recorded beside the production request_time.
// Memory does not grow with the logs: both passes stream them.
package replay

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"benchbed/load"
	"benchbed/plan/proxylog"
	"benchbed/results"
)

// Config is one replay.
type Config struct {
	Client     *load.Client
	Template   *proxylog.Template
	Logs       []string
	Speed      float64 // time runs this many times faster than logged (default 1)
	Base       string  // container names: <Base>_%06d (default "replay")
	Containers int     // containers the objects are spread over (default 10)
	Users      int     // requests in flight at most (default 64)
}

// Methods are the methods replayed; other requests are skipped.
var Methods = []string{http.MethodGet, http.MethodPut, http.MethodHead, http.MethodDelete}

func (c *Config) resolve() error {
	if c.Client == nil || c.Template == nil || len(c.Logs) == 0 {
		return errors.New("replay: a client, a template and logs are needed")
	}
	if c.Speed <= 0 {
		c.Speed = 1
	}
	if c.Base == "" {
		c.Base = "replay"
	}
	if c.Containers <= 0 {
		c.Containers = 10
	}
	if c.Users <= 0 {
		c.Users = 64
	}
	return nil
}

// Name maps a logged object (its Key) to its replayed container and name:
// no logged name, account or container reaches the cluster.
func (c *Config) Name(key uint64) (string, string) {
	cont := c.Base + "_" + fmt.Sprintf("%06d", key%uint64(c.Containers))
	return cont, strconv.FormatUint(key, 16)
}

// replayed reports whether rec is a request the replay issues.
func replayed(rec *proxylog.Record) bool {
	if !rec.Client() || rec.Kind != proxylog.KindObject {
		return false
	}
	for _, m := range Methods {
		if rec.Method == m {
			return true
		}
	}
	return false
}

// Result is a finished replay.
type Result struct {
	Recording  results.Recording        // the replayed operations, by method
	Production map[string]*results.Hist // the logged request_time of the same operations, by method
	Skipped    int64                    // logged requests not replayed (not a client's object GET, PUT, HEAD, DELETE)
	Prefilled  int64                    // objects put first (read before written in the logs)
	Stats      proxylog.Stats           // lines read (the replay's pass)
	Duration   time.Duration            // from the first request's due time to the last one's end
	Order      []string                 // the first operations issued, in order (at most 1000), "GET <hash>"
}

// job is one request to issue at its due time.
type job struct {
	req    load.Request
	due    time.Time
	method string
	prod   time.Duration
}

// Run prefills (unless skipPrefill), then replays the logs.
func Run(ctx context.Context, cfg Config, skipPrefill bool) (*Result, error) {
	if err := cfg.resolve(); err != nil {
		return nil, err
	}
	res := &Result{Production: map[string]*results.Hist{}}
	if err := ensureContainers(ctx, &cfg); err != nil {
		return nil, err
	}
	if !skipPrefill {
		n, err := prefill(ctx, &cfg)
		res.Prefilled = n
		if err != nil {
			return res, err
		}
	}
	return res, replay(ctx, &cfg, res)
}

// replay issues the logged requests at their times, Users at most in
// flight; latency counts from each request's due time.
func replay(ctx context.Context, cfg *Config, res *Result) error {
	r, err := proxylog.Open(cfg.Template, cfg.Logs...)
	if err != nil {
		return err
	}
	defer r.Close()
	rec := load.NewRecorder()
	jobs := make(chan job, cfg.Users)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range cfg.Users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				o := cfg.Client.Do(ctx, &j.req, j.due)
				rec.Record(j.method, o)
				mu.Lock()
				prodHist(res, j.method).Record(j.prod)
				mu.Unlock()
			}
		}()
	}
	start, err := dispatch(ctx, cfg, r, jobs, res)
	close(jobs)
	wg.Wait()
	res.Duration = time.Since(start)
	rec.Flush(func(results.Recording, results.FillRecording) {})
	res.Recording, _ = rec.Total()
	res.Stats = r.Stats()
	return errors.Join(err, r.Err())
}

// prodHist is the production histogram of method.
func prodHist(res *Result, method string) *results.Hist {
	h := res.Production[method]
	if h == nil {
		h = results.NewHist()
		res.Production[method] = h
	}
	return h
}

// dispatch reads the records and hands each replayed one to the workers
// at its due time; it returns the replay's start.
func dispatch(ctx context.Context, cfg *Config, r *proxylog.Reader, jobs chan<- job, res *Result) (time.Time, error) {
	start := time.Now()
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		if !replayed(rec) {
			res.Skipped++
			continue
		}
		if first.IsZero() {
			first = rec.Start
		}
		due := start.Add(time.Duration(float64(rec.Start.Sub(first)) / cfg.Speed))
		if d := time.Until(due); d > 0 {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				timer.Stop()
				return start, ctx.Err()
			case <-timer.C:
			}
		}
		j := job{due: due, method: rec.Method, prod: rec.RequestTime}
		j.req.Method = rec.Method
		j.req.Container, j.req.Object = cfg.Name(rec.Key())
		if rec.Method == http.MethodPut {
			j.req.Size = rec.BytesRecvd
		}
		select {
		case jobs <- j:
		case <-ctx.Done():
			return start, ctx.Err()
		}
	}
	return start, nil
}
