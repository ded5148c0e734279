package prefill

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"benchbed/plan/scenario"
)

// Options say how a prefill runs.
type Options struct {
	Concurrency int                // PUTs in flight (default 32)
	Verify      string             // "listing" (default) or "head"
	Retries     int                // attempts after the first failed PUT (default 5)
	Backoff     time.Duration      // first retry's wait, doubled each time (default 200ms)
	State       *State             // the checkpoint to resume from and update; nil = fresh, not kept
	Save        func(*State) error // persists State after each unit (nil = not persisted)
	Part, Parts int                // this runner's share of the units: Part of Parts (default 0 of 1)
	OnUnitDone  func(unit int)     // called after each unit is done and saved (nil = not called)
	// CheckOnly lists the containers and counts what is in place and what
	// is missing (Totals.Missing, Totals.Short) without creating or putting
	// anything: a precondition check.
	CheckOnly bool
}

// Counters are a prefill's running totals; read them with Snapshot.
type Counters struct {
	Put, Skipped, Retried, Failed, Listed, Missing atomic.Int64

	mu    sync.Mutex
	short []Shortfall
}

// Totals is a snapshot of Counters.
type Totals struct {
	Put      int64 `json:"put"`     // objects uploaded
	Skipped  int64 `json:"skipped"` // objects found already there
	Retried  int64 `json:"retried"` // PUT attempts that were retries
	Failed   int64 `json:"failed"`  // objects still missing after every retry
	Requests int64 `json:"listing_requests"`
	// Missing is, in a check-only pass, the objects absent or of a size
	// outside their class; Short the first containers they are missing from.
	Missing int64       `json:"missing,omitempty"`
	Short   []Shortfall `json:"short,omitempty"`
}

// Shortfall is a container that a check-only pass found short of objects.
type Shortfall struct {
	Container string `json:"container"`
	Expected  int64  `json:"expected"` // initial objects it should hold
	Present   int64  `json:"present"`  // found with a size in their class's range
}

// maxShort bounds the shortfalls kept: enough to say where, not a list.
const maxShort = 8

// Snapshot reads the counters.
func (c *Counters) Snapshot() Totals {
	c.mu.Lock()
	short := slices.Clone(c.short)
	c.mu.Unlock()
	return Totals{Put: c.Put.Load(), Skipped: c.Skipped.Load(), Retried: c.Retried.Load(),
		Failed: c.Failed.Load(), Requests: c.Listed.Load(), Missing: c.Missing.Load(), Short: short}
}

// addShort records a container found short, keeping the maxShort first
// by name (whatever order the checks end in).
func (c *Counters) addShort(s Shortfall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, _ := slices.BinarySearchFunc(c.short, s.Container, func(x Shortfall, name string) int { return strings.Compare(x.Container, name) })
	c.short = slices.Insert(c.short, i, s)
	if len(c.short) > maxShort {
		c.short = c.short[:maxShort]
	}
}

func (o *Options) defaults() {
	if o.Concurrency <= 0 {
		o.Concurrency = 32
	}
	if o.Verify == "" {
		o.Verify = "listing"
	}
	if o.Retries < 0 {
		o.Retries = 0
	} else if o.Retries == 0 {
		o.Retries = 5
	}
	if o.Backoff <= 0 {
		o.Backoff = 200 * time.Millisecond
	}
	if o.Parts <= 0 {
		o.Part, o.Parts = 0, 1
	}
	if o.CheckOnly {
		o.Verify = "listing"
	}
	if o.State == nil {
		o.State = &State{}
	}
}

// Run creates the containers and every initial object of this runner's
// units that is not there yet. A unit the checkpoint marks done is skipped;
// any other unit whose container may hold objects is checked first (by
// listing, or HEAD) and only what is missing is put.
func Run(ctx context.Context, l *Layout, st Store, opts Options, cnt *Counters) error {
	opts.defaults()
	units := l.Units()
	if err := opts.State.bind(l, units); err != nil {
		return err
	}
	if opts.CheckOnly {
		opts.State = &State{} // a check reads every unit, and marks none done
		if err := opts.State.bind(l, units); err != nil {
			return err
		}
	} else if err := l.createContainers(ctx, st, opts); err != nil {
		return err
	}
	r := &runner{l: l, st: st, opts: opts, cnt: cnt, checks: map[int]*sharedCheck{}}
	g, gctx := errgroup.WithContext(ctx)
	work := make(chan Unit)
	g.Go(func() error {
		defer close(work)
		for i, u := range units {
			if i%opts.Parts != opts.Part || opts.State.isDone(i) {
				continue
			}
			select {
			case work <- u:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for w := 0; w < opts.Concurrency; w++ {
		g.Go(func() error {
			for u := range work {
				if err := r.unit(gctx, u); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if n := cnt.Failed.Load(); n > 0 {
		return fmt.Errorf("%d objects could not be put after %d retries each; run prefill again to put what is missing", n, opts.Retries)
	}
	return nil
}

// putOnce uploads o once: as a large object when its class is large.
func (r *runner) putOnce(ctx context.Context, container string, o Object) error {
	if r.l.large(o.Class) {
		ls, ok := r.st.(LargeStore)
		if !ok {
			return fmt.Errorf("PUT %s/%s: this store cannot upload large objects", container, o.Name)
		}
		return ls.PutLarge(ctx, r.l.sc, container, o.Name, o.Size)
	}
	return r.st.PutObject(ctx, container, o.Name, o.Size)
}

func (l *Layout) createContainers(ctx context.Context, st Store, opts Options) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(min(opts.Concurrency, 16))
	names := l.containers
	if _, inline := st.(partsStore); l.sc != nil && l.sc.HasLarge() && !inline {
		names = nil
		for _, c := range l.containers {
			names = append(names, c, scenario.SegmentContainer(c))
		}
	}
	// Every part creates every container: its units span them all, and a
	// PUT of an existing container is a cheap no-op.
	for _, name := range names {
		g.Go(func() error {
			if err := st.PutContainer(gctx, name); err != nil {
				return fmt.Errorf("PUT container %s: %w", name, err)
			}
			return nil
		})
	}
	return g.Wait()
}

// runner holds one Run's shared state.
type runner struct {
	l      *Layout
	st     Store
	opts   Options
	cnt    *Counters
	mu     sync.Mutex
	checks map[int]*sharedCheck // container -> its check, shared by its units
}

// sharedCheck is one container's check, made once and dropped when the
// last of its units is done, so memory follows the containers in progress.
type sharedCheck struct {
	once  sync.Once
	chk   *ContainerCheck
	err   error
	users int
}

func (r *runner) unit(ctx context.Context, u Unit) error {
	// Always check first: a listing costs one request per 10,000 objects, and
	// the account may hold an earlier prefill (benchbed's or ssbench's).
	chk, err := r.check(ctx, u)
	if err != nil {
		return err
	}
	if r.opts.CheckOnly {
		for p := u.From; p < u.To; p++ {
			if chk.Has(p) {
				r.cnt.Skipped.Add(1)
			} else {
				r.cnt.Missing.Add(1)
			}
		}
		return nil
	}
	failed := false
	name := r.l.containers[u.Container]
	for p := u.From; p < u.To; p++ {
		if chk != nil && chk.Has(p) {
			r.cnt.Skipped.Add(1)
			continue
		}
		o := r.l.At(int64(u.Container) + p*int64(len(r.l.containers)))
		if err := r.put(ctx, name, o); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.cnt.Failed.Add(1)
			failed = true
		}
	}
	if failed {
		return nil // left not done: a later run puts what is still missing
	}
	i, err := r.opts.State.markDone(u, r.opts.Save)
	if err == nil && r.opts.OnUnitDone != nil {
		r.opts.OnUnitDone(i)
	}
	return err
}

func (r *runner) check(ctx context.Context, u Unit) (*ContainerCheck, error) {
	if r.opts.Verify == "head" {
		chk, err := r.l.CheckHead(ctx, r.st, u.Container, u.From, u.To)
		if chk != nil {
			r.cnt.Listed.Add(chk.Requests)
		}
		return chk, err
	}
	r.mu.Lock()
	sc := r.checks[u.Container]
	if sc == nil {
		sc = &sharedCheck{users: r.l.unitsIn(u.Container)}
		r.checks[u.Container] = sc
	}
	r.mu.Unlock()
	sc.once.Do(func() {
		sc.chk, sc.err = r.l.CheckContainer(ctx, r.st, u.Container)
		if sc.chk != nil {
			r.cnt.Listed.Add(sc.chk.Requests)
			if r.opts.CheckOnly && sc.chk.Missing() > 0 {
				r.cnt.addShort(Shortfall{Container: sc.chk.Container, Expected: sc.chk.Expected, Present: sc.chk.Present})
			}
		}
	})
	r.mu.Lock()
	if sc.users--; sc.users <= 0 {
		delete(r.checks, u.Container)
	}
	r.mu.Unlock()
	return sc.chk, sc.err
}

// put uploads o, retrying with exponential backoff.
func (r *runner) put(ctx context.Context, container string, o Object) error {
	wait := r.opts.Backoff
	var err error
	for attempt := 0; attempt <= r.opts.Retries; attempt++ {
		if attempt > 0 {
			r.cnt.Retried.Add(1)
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return ctx.Err()
			}
			wait = min(2*wait, 10*time.Second)
		}
		if err = r.putOnce(ctx, container, o); err == nil {
			r.cnt.Put.Add(1)
			return nil
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
	}
	return err
}
