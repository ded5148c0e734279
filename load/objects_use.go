package load

import (
	"math/rand/v2"
	"slices"
	"sync"

	"benchbed/plan/scenario"
)

// objectUsers keeps a run's requests off each other's objects: a read or
// update holds its object until it ends, and a delete waits for them, so
// that no GET races the DELETE of its object into a 404 that the cluster
// never deserved. It also keeps the initial objects a delete took
// (holes): reads skip them, and the run puts them back at its end, so that
// the scenario's initial files outlive the run as ssbench's users expect.
type objectUsers struct {
	mu    sync.Mutex
	idle  *sync.Cond         // broadcast when an object's last user ends
	inUse map[int64]int      // objects with requests in flight, and how many
	holes map[int64]struct{} // initial objects deleted by the run
}

func (u *objectUsers) init() {
	u.idle = sync.NewCond(&u.mu)
	u.inUse = map[int64]int{}
	u.holes = map[int64]struct{}{}
}

// drawTries bounds the redraws that skip holes and busy objects.
const drawTries = 64

// existing draws an existing object of class c (an initial one still in
// place, or one the run created and has not deleted) and holds it until
// release.
func (o *objects) existing(c int, rng *rand.Rand) int64 {
	cl := o.classes[c]
	cl.users.mu.Lock()
	defer cl.users.mu.Unlock()
	idx := o.drawExisting(c, rng)
	cl.users.inUse[idx]++
	return idx
}

// drawExisting draws uniformly over the class's live objects: random
// draws that skip holes, then (when holes are most of the initial share)
// a scan. The caller holds the class's users lock.
func (o *objects) drawExisting(c int, rng *rand.Rand) int64 {
	cl := o.classes[c]
	own := o.own(c)
	lo, n := cl.created.live()
	for range drawTries {
		r := o.drawRank(own+n, rng)
		if r >= own {
			return lo + r - own
		}
		if idx := o.ownInitial(c, r); !hasKey(cl.users.holes, idx) {
			return idx
		}
	}
	if n > 0 {
		return lo + rng.Int64N(n)
	}
	start := rng.Int64N(own)
	for k := range own {
		if idx := o.ownInitial(c, (start+k)%own); !hasKey(cl.users.holes, idx) {
			return idx
		}
	}
	return o.ownInitial(c, start) // nothing left: its request will say so
}

// drawRank draws a rank from 0 to n-1: uniformly (ssbench's way), or by
// the scenario's Zipf popularity, rank 0 the most popular.
func (o *objects) drawRank(n int64, rng *rand.Rand) int64 {
	if p := o.s.Popularity; p != nil && p.Zipf > 0 {
		return scenario.ZipfRank(rng.Float64(), n, p.Zipf)
	}
	return rng.Int64N(n)
}

// release ends a hold taken by existing.
func (o *objects) release(c int, idx int64) {
	u := &o.classes[c].users
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.inUse[idx]--; u.inUse[idx] <= 0 {
		delete(u.inUse, idx)
		u.idle.Broadcast()
	}
}

// toDelete takes the oldest object the run created, or when there is none
// an initial object (recorded as a hole, to be put back), and waits until
// no read or update holds it. Nothing draws it afterwards. It takes none
// (false) when the class is down to its last live object.
func (o *objects) toDelete(c int, rng *rand.Rand) (int64, bool) {
	cl := o.classes[c]
	u := &cl.users
	u.mu.Lock()
	defer u.mu.Unlock()
	_, n := cl.created.live()
	if n+o.own(c)-int64(len(u.holes)) <= 1 {
		return 0, false
	}
	idx, ok := cl.created.popOldest()
	if !ok {
		idx = o.initialToDelete(c, rng)
		u.holes[idx] = struct{}{}
	}
	for u.inUse[idx] > 0 {
		u.idle.Wait()
	}
	return idx, true
}

// initialToDelete draws an initial object of class c that is in place and
// preferably idle. The caller holds the class's users lock.
func (o *objects) initialToDelete(c int, rng *rand.Rand) int64 {
	cl := o.classes[c]
	own := o.own(c)
	var idx int64
	for try := range 2 * drawTries {
		idx = o.ownInitial(c, rng.Int64N(own))
		_, hole := cl.users.holes[idx]
		if !hole && (cl.users.inUse[idx] == 0 || try >= drawTries) {
			return idx
		}
	}
	for r := range own { // nearly all deleted: scan
		if i := o.ownInitial(c, r); !hasKey(cl.users.holes, i) {
			return i
		}
	}
	return idx // every one deleted: its DELETE will say so
}

// notDeleted forgets the hole of an initial object whose DELETE found
// nothing: the run put back only what it deleted.
func (o *objects) notDeleted(c int, idx int64) {
	u := &o.classes[c].users
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.holes, idx)
}

// holes returns the initial objects of class c the run deleted, sorted.
func (o *objects) holes(c int) []int64 {
	u := &o.classes[c].users
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]int64, 0, len(u.holes))
	for i := range u.holes {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

func hasKey(m map[int64]struct{}, k int64) bool { _, ok := m[k]; return ok }
