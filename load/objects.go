package load

import (
	"math/rand/v2"
	"sync"

	"benchbed/plan/scenario"
)

// Operation types, as they appear in the recording and the summary.
const (
	OpCreate = "PUT"    // ssbench's create: a new object
	OpRead   = "GET"    // a read of an existing object
	OpUpdate = "UPDATE" // a PUT over an existing object
	OpDelete = "DELETE" // a delete of an existing object
	OpHead   = "HEAD"   // a HEAD of an existing object (a scenario's head_share)
)

var crudOps = [4]string{OpCreate, OpRead, OpUpdate, OpDelete}

// class is a size class with initial files: what a benchmark draws from.
type class struct {
	size    scenario.Size
	initial int64      // initial objects, named <size>_000001 and up
	crudCum [4]float64 // cumulative C, R, U, D probabilities
	created createdRange
	users   objectUsers
}

// objects knows every object of a run by index, never by a list: initial
// objects by ssbench's formula, the run's own in one range per class.
type objects struct {
	s          *scenario.Scenario
	classes    []*class
	sizeCum    []float64 // cumulative probability of each class
	counts     []int64   // initial counts by class, for container numbers
	maxInitial int64
	// part of parts: the share of the object space of one of several
	// agents running the scenario at once. An agent creates the numbers
	// first + k*parts + part, and reads, updates and deletes only its share
	// of the initial objects (all of them when there are fewer than parts),
	// so that no agent deletes what another reads.
	part, parts int64
}

// setPart gives the objects to agent part of parts (0 of 1: all).
func (o *objects) setPart(part, parts int) {
	if parts < 1 || part < 0 || part >= parts {
		part, parts = 0, 1
	}
	o.part, o.parts = int64(part), int64(parts)
}

// number is the object number (in its name) of index: an initial object's
// own, or the number this agent gives the run's created index.
func (o *objects) number(c int, index int64) int64 {
	if index <= o.classes[c].initial {
		return index
	}
	first := o.maxInitial + 1
	return first + (index-first)*o.parts + o.part
}

// own is how many initial objects of class c are this agent's.
func (o *objects) own(c int) int64 {
	n := o.classes[c].initial
	if o.parts <= 1 || n < o.parts {
		return n
	}
	return (n - o.part + o.parts - 1) / o.parts
}

// ownInitial is the index of this agent's r-th (from 0) initial object.
func (o *objects) ownInitial(c int, r int64) int64 {
	if o.parts <= 1 || o.classes[c].initial < o.parts {
		return r + 1
	}
	return o.part + 1 + r*o.parts
}

func newObjects(s *scenario.Scenario) *objects {
	o := &objects{s: s, parts: 1}
	var total float64
	for _, z := range s.Sizes {
		n := int64(s.InitialFiles[z.Name])
		if n <= 0 {
			continue
		}
		c := &class{size: z, initial: n}
		crud := s.CrudProfile
		if z.CrudProfile != nil {
			crud = z.CrudProfile
		}
		cumulate(c.crudCum[:], crud)
		o.classes = append(o.classes, c)
		o.counts = append(o.counts, n)
		o.maxInitial = max(o.maxInitial, n)
		total += float64(n)
	}
	acc := 0.0
	for _, c := range o.classes {
		acc += float64(c.initial) / total
		o.sizeCum = append(o.sizeCum, acc)
	}
	for _, c := range o.classes {
		c.created.init(o.maxInitial + 1)
		c.users.init()
	}
	return o
}

// cumulate fills dst with the running sums of w, normalised to end at 1.
func cumulate(dst []float64, w []float64) {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	acc := 0.0
	for i, x := range w {
		acc += x / sum
		dst[i] = acc
	}
	dst[len(dst)-1] = 1
}

// pick draws index i's position from cum with r in [0, 1).
func pick(cum []float64, r float64) int {
	for i, p := range cum {
		if r < p {
			return i
		}
	}
	return len(cum) - 1
}

// initialContainer returns the container number of initial object index
// (from 1) of class c: ssbench hands containers out round-robin over its
// initial jobs.
func (o *objects) initialContainer(c int, index int64) int {
	return int(InitialNumber(o.counts, c, index) % int64(o.s.ContainerCount))
}

// InitialNumber returns the number (from 0) of the index-th (from 1)
// initial object of class c among the initial jobs ssbench generates, which
// interleave the classes in the scenario's order: round r holds index r+1 of
// every class that has that many. counts are the classes' initial files.
func InitialNumber(counts []int64, c int, index int64) int64 {
	r := index - 1
	var k int64
	for t, n := range counts {
		k += min(n, r)
		if t < c && n > r {
			k++
		}
	}
	return k
}

// name returns ssbench's object name for index in class c.
func (o *objects) name(c int, index int64) string {
	return scenario.ObjectName(o.classes[c].size.Name, o.number(c, index))
}

// container returns the container of object index of class c: ssbench's
// for initial objects, index mod container_count for the run's own.
func (o *objects) container(c int, index int64) string {
	if index <= o.classes[c].initial {
		return o.s.ContainerName(o.initialContainer(c, index))
	}
	return o.s.ContainerName(int(o.number(c, index) % int64(o.s.ContainerCount)))
}

// size draws a body size uniformly in the class's [size_min, size_max].
func (o *objects) size(c int, rng *rand.Rand) int64 {
	z := o.classes[c].size
	return z.SizeMin + rng.Int64N(z.SizeMax-z.SizeMin+1)
}

// createdRange tracks the objects a run creates as one range of indexes:
// [lo, committed) exist, [committed, hi) are being put. Puts may finish out
// of order; done holds at most the puts in flight. An update that raced a
// delete of its object may have put it again after the delete: such
// indexes below lo are kept in revived, a set as small as those races are
// rare, so that cleanup deletes them too.
type createdRange struct {
	mu                       sync.Mutex
	first, lo, committed, hi int64
	done                     map[int64]struct{}
	revived                  map[int64]struct{}
}

func (r *createdRange) init(first int64) {
	r.first, r.lo, r.committed, r.hi = first, first, first, first
	r.done = map[int64]struct{}{}
	r.revived = map[int64]struct{}{}
}

// updated is called when an update of index has ended: if the index was
// taken for deletion meanwhile, the update may have put it back.
func (r *createdRange) updated(index int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if index >= r.first && index < r.lo {
		r.revived[index] = struct{}{}
	}
}

// revivedIndexes returns the indexes updates may have put back after their
// deletion, in no order.
func (r *createdRange) revivedIndexes() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]int64, 0, len(r.revived))
	for i := range r.revived {
		out = append(out, i)
	}
	return out
}

// reserve returns the index of a new object.
func (r *createdRange) reserve() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hi++
	return r.hi - 1
}

// finish marks index's put as finished (whatever its outcome).
func (r *createdRange) finish(index int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done[index] = struct{}{}
	for {
		if _, ok := r.done[r.committed]; !ok {
			return
		}
		delete(r.done, r.committed)
		r.committed++
	}
}

// live returns the first existing created index and how many there are.
func (r *createdRange) live() (int64, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lo, r.committed - r.lo
}

func (r *createdRange) popOldest() (int64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lo >= r.committed {
		return 0, false
	}
	r.lo++
	return r.lo - 1, true
}

// left returns the created objects not deleted: [lo, hi).
func (r *createdRange) left() (int64, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lo, r.hi
}
