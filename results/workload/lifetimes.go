package workload

import (
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// maxTracked bounds the objects whose last PUT a fit remembers (about
// 3 MiB): past it, an arbitrary one is forgotten, so that memory stays
// flat; the lifetimes are then those of the objects still remembered, and
// the fit says how many reads and deletes found their PUT.
const maxTracked = 1 << 17

// lifetimes measures how long after its PUT an object is read or deleted.
type lifetimes struct {
	put        map[uint64]int64 // object -> its last PUT (Unix ns)
	toGet      *hdrhistogram.Histogram
	toDelete   *hdrhistogram.Histogram
	gets, dels int64 // client GETs and DELETEs seen
	overwrites int64 // PUTs over an object the logs put before (and still remembered)
	evicted    int64
	maxTracked int
}

func newLifetimes(track int) *lifetimes {
	if track <= 0 {
		track = maxTracked
	}
	return &lifetimes{put: map[uint64]int64{}, maxTracked: track,
		toGet: newSecondsHist(), toDelete: newSecondsHist()}
}

// newSecondsHist covers 1 ms to 10 years in milliseconds.
func newSecondsHist() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, 10*365*24*3600*1000, 2)
}

// add counts one client object request of op on key at t (Unix ns) that
// succeeded.
func (l *lifetimes) add(op string, key uint64, t int64) {
	switch op {
	case "PUT":
		_, again := l.put[key]
		if again {
			l.overwrites++
		}
		if !again && len(l.put) >= l.maxTracked {
			for k := range l.put {
				delete(l.put, k)
				l.evicted++
				break
			}
		}
		l.put[key] = t
	case "GET":
		l.gets++
		if p, ok := l.put[key]; ok {
			_ = l.toGet.RecordValue(max((t-p)/1e6, 1))
		}
	case "DELETE":
		l.dels++
		if p, ok := l.put[key]; ok {
			_ = l.toDelete.RecordValue(max((t-p)/1e6, 1))
			delete(l.put, key)
		}
	}
}
