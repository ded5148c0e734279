package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"benchbed/plan/scenario"
	"benchbed/results"
)

// Config is one run of a scenario.
type Config struct {
	Scenario   *scenario.Scenario
	Client     *Client
	Users      int           // concurrent users (0: the scenario's user_count)
	Duration   time.Duration // run time (0: the scenario's run_seconds)
	Operations int64         // operations, when there is no duration (0: operation_count)
	Rate       float64       // > 0: open loop at this many operations per second in all
	Keep       bool          // keep the objects the run created (else deleted at the end)
	Interval   time.Duration // recording interval (default 1s)
	StartAt    time.Time     // wait until then before the first operation (zero: now)
	// Part of Parts is this run's share of the object space when several
	// agents run the scenario at once (0 of 0 or 1: all of it).
	Part, Parts int
	// Verify checks every GET's body against the generated content; a
	// difference is an error of cause "corrupt".
	Verify bool
	// Fill, when set, makes the run a fill experiment: creates into the
	// scenario's containers from empty up to Fill.Objects each (the
	// operation count, unless one is given), their latencies also recorded
	// by fill bucket (filling).
	Fill *results.FillSpec
	// OnInterval receives each interval's recording and fill buckets
	// (empty without Fill), which it must not keep (it may serialise
	// them); nil to ignore intervals.
	OnInterval func(start, end time.Time, r results.Recording, fill results.FillRecording)
	// Stop, when closed, ends the run before its duration or count as
	// these do: no operation starts after it, those under way finish and
	// count (duration and warm-up "auto"); nil never stops.
	Stop <-chan struct{}

	schedule *scenario.Schedule // the scenario's rate profile, when Rate is 0
}

// Result is a finished run.
type Result struct {
	Started   time.Time
	Duration  time.Duration // from the first operation to the last one's end
	Recording results.Recording
	PerSecond []int64 // successful operations per interval
	Restored  int64   // initial objects the run deleted and put back at its end
	Cleanup   error   // failures deleting the run's objects or restoring initial ones (the run still counts)

	// A fill run's creates by fill bucket, and its spec (nil for other runs).
	Fill     results.FillRecording
	FillSpec *results.FillSpec
}

// Cell summarises the result as summary.json's cell (docs/results.md) (workload = scenario name).
func (r *Result) Cell(workload string) results.Cell {
	c := results.Summarise(r.Recording, r.Duration)
	c.Workload, c.Status, c.PerSecond = workload, results.StatusOK, r.PerSecond
	if r.FillSpec != nil {
		c.Fill, _ = results.SummariseFill(*r.FillSpec, r.Fill) // a run's own buckets are the spec's
	}
	return c
}

func (c *Config) resolve() error {
	s := c.Scenario
	if s == nil || c.Client == nil {
		return errors.New("load: a scenario and a client are needed")
	}
	if c.Users <= 0 {
		c.Users = s.UserCount
	}
	if c.Fill != nil {
		if err := c.resolveFill(); err != nil {
			return err
		}
	}
	if c.Rate == 0 && s.RateProfile != nil {
		c.schedule = s.RateProfile.Schedule()
	}
	if c.Duration == 0 && c.Operations == 0 {
		if s.RunSeconds > 0 { // ssbench: run_seconds wins over operation_count
			c.Duration = time.Duration(s.RunSeconds * float64(time.Second))
		} else {
			c.Operations = int64(s.OperationCount)
		}
	}
	if c.Interval <= 0 {
		c.Interval = time.Second
	}
	if c.Rate < 0 || c.Duration < 0 || c.Operations < 0 {
		return errors.New("load: rate, duration and operations must be >= 0")
	}
	return nil
}

// Run runs the scenario's measured phase: containers first when the
// scenario writes, then the users until the duration or the operation count
// is reached (or ctx is done). After it, unmeasured: the initial objects its
// deletes took are put back, and the objects it created are deleted unless
// kept. The initial objects themselves must be in place before (prefill).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.resolve(); err != nil {
		return nil, err
	}
	objs := newObjects(cfg.Scenario)
	objs.setPart(cfg.Part, cfg.Parts)
	if writes(cfg.Scenario) {
		if err := ensureContainers(ctx, cfg.Client, cfg.Scenario); err != nil {
			return nil, err
		}
	}
	if d := time.Until(cfg.StartAt); d > 0 {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(d):
		}
	}
	rec := NewRecorder()
	res := runUsers(ctx, &cfg, objs, rec)
	after := context.WithoutCancel(ctx)
	res.Restored, res.Cleanup = restoreInitial(after, cfg.Client, objs, cfg.Users)
	if !cfg.Keep {
		res.Cleanup = errors.Join(res.Cleanup, cleanup(after, cfg.Client, objs, cfg.Users))
	}
	return res, ctx.Err()
}

// writes reports whether any class can create or update.
func writes(s *scenario.Scenario) bool {
	for _, z := range s.Sizes {
		p := s.CrudProfile
		if z.CrudProfile != nil {
			p = z.CrudProfile
		}
		if p[0] > 0 || p[2] > 0 {
			return true
		}
	}
	return false
}

// runUsers starts the users and the interval flusher and waits for them.
func runUsers(ctx context.Context, cfg *Config, objs *objects, rec *Recorder) *Result {
	start := time.Now()
	var deadline time.Time
	if cfg.Duration > 0 {
		deadline = start.Add(cfg.Duration)
	}
	u := &users{cfg: cfg, objs: objs, rec: rec, start: start, deadline: deadline}
	if cfg.Fill != nil {
		u.fill = newFilling(*cfg.Fill, cfg.Scenario, cfg.Parts)
	}
	stopFlush := make(chan struct{})
	flushed := make(chan struct{})
	go u.flushLoop(stopFlush, flushed)
	var wg sync.WaitGroup
	for i := range cfg.Users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.loop(ctx, uint64(i))
		}()
	}
	wg.Wait()
	end := time.Now()
	close(stopFlush)
	<-flushed
	total, per := rec.Total()
	return &Result{Started: start, Duration: end.Sub(start), Recording: total, PerSecond: per,
		Fill: rec.TotalFill(), FillSpec: cfg.Fill}
}

// users is the state the users of one run share.
type users struct {
	cfg      *Config
	objs     *objects
	rec      *Recorder
	start    time.Time
	deadline time.Time
	taken    atomic.Int64 // operations (closed loop) or slots (open loop) taken
	fill     *filling     // a fill run's count, nil for other runs
}

func (u *users) flushLoop(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(u.cfg.Interval)
	defer t.Stop()
	from := u.start
	flush := func(now time.Time) {
		u.rec.Flush(func(r results.Recording, fill results.FillRecording) {
			if u.cfg.OnInterval != nil {
				u.cfg.OnInterval(from, now, r, fill)
			}
		})
		from = now
	}
	for {
		select {
		case now := <-t.C:
			flush(now)
		case <-stop:
			flush(time.Now())
			return
		}
	}
}

// next returns when the user's next operation is meant to start, or false
// when the run is over. Closed loop: now. Open loop: the next free slot of
// the schedule, waited for, so that latency counts from it even when the
// server (or this client) falls behind.
func (u *users) next(ctx context.Context, timer *time.Timer) (time.Time, bool) {
	k := u.taken.Add(1) - 1
	if u.cfg.Operations > 0 && k >= u.cfg.Operations || ctx.Err() != nil || stopped(u.cfg.Stop) {
		return time.Time{}, false
	}
	if u.cfg.Rate <= 0 && u.cfg.schedule == nil {
		now := time.Now()
		return now, u.deadline.IsZero() || now.Before(u.deadline)
	}
	at, ok := u.slot(k)
	if !ok || !u.deadline.IsZero() && !at.Before(u.deadline) {
		return time.Time{}, false
	}
	if d := time.Until(at); d > 0 {
		timer.Reset(d)
		select {
		case <-ctx.Done():
			return time.Time{}, false
		case <-u.cfg.Stop:
			timer.Stop()
			return time.Time{}, false
		case <-timer.C:
		}
	}
	return at, true
}

// slot is when open-loop slot k starts: at the rate, or by the rate
// profile, of which this agent (part of parts) takes every parts-th
// operation; false past the profile's end.
func (u *users) slot(k int64) (time.Time, bool) {
	if u.cfg.schedule == nil {
		return u.start.Add(time.Duration(float64(k) / u.cfg.Rate * float64(time.Second))), true
	}
	parts, part := int64(max(u.cfg.Parts, 1)), int64(max(u.cfg.Part, 0))
	off, ok := u.cfg.schedule.At(k*parts + part%parts)
	return u.start.Add(off), ok
}

// stopped reports whether stop is closed (never for nil).
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// loop is one user: draw an operation, run it, record it, until done.
func (u *users) loop(ctx context.Context, id uint64) {
	rng := rand.New(rand.NewPCG(uint64(u.start.UnixNano()), id))
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	sess := u.cfg.Client.NewSession(ctx)
	sess.bufSize = u.cfg.Client.readBufferFor(u.cfg.Users)
	if u.cfg.Verify {
		sess.check = &Verifier{}
	}
	defer sess.Close()
	req := &Request{}
	for {
		at, ok := u.next(ctx, timer)
		if !ok {
			return
		}
		c, op, index := u.draw(rng)
		u.do(sess, req, op, c, index, rng, at)
	}
}

// ensureContainers creates the scenario's containers (S3's buckets),
// container_concurrency at a time, with its policy and
// container_put_headers; one already there is fine.
func ensureContainers(ctx context.Context, c *Client, s *scenario.Scenario) error {
	reqs, there := c.api().containerPuts(s)
	return parallel(len(reqs), s.ContainerConcurrency, func(i int) error {
		o := c.Do(ctx, &reqs[i], time.Now())
		if !o.OK() && !there(o) {
			hint := ""
			if c.api().errorBodies() && o.Err == nil && o.Code == "" {
				hint = S3NotS3
			}
			return fmt.Errorf("load: PUT container %s: %s%s", reqs[i].Container, describe(o), hint)
		}
		return nil
	})
}

// describe says what went wrong with an outcome.
func describe(o Outcome) string {
	switch {
	case o.Err != nil:
		return o.Err.Error()
	case o.Code != "":
		return "HTTP " + strconv.Itoa(o.Status) + " " + o.Code + S3Hint(o.Code)
	}
	return "HTTP " + strconv.Itoa(o.Status)
}
