package workload

import (
	"strconv"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"benchbed/plan/proxylog"
)

// Options are a fit's choices.
type Options struct {
	// ClearNames shows the hottest objects' container and object names as
	// logged (never the account); else as hashes.
	ClearNames bool
	// TopK is how many popular objects the sketch holds (default 4096).
	TopK int
	// TrackPuts is how many objects' last PUT the lifetimes remember
	// (default 2^17, about 3 MiB).
	TrackPuts int
}

// maxSize is the largest body a size histogram holds (5 TiB).
const maxSize = 5 << 40

// Fitter accumulates records; Fit gives the workload. Not safe for
// concurrent use.
type Fitter struct {
	opts       Options
	first      time.Time
	last       time.Time
	requests   int64 // client requests of every kind
	subs       int64 // middleware subrequests
	kinds      [5]int64
	ops        [7]int64
	status     [7][6]int64 // op -> status class (0: other, 1xx..5xx)
	sizes      [7]*hdrhistogram.Histogram
	latency    [7]*hdrhistogram.Histogram // request_time, microseconds
	s3         int64
	tl         timeline
	reads      *topK // GET and HEAD objects
	containers *topK // object requests' containers
	objects    hll   // every object a client request names
	conts      hll
	life       *lifetimes
	names      map[uint64]string // the hottest objects' clear names, bounded by TopK
}

// New returns an empty Fitter.
func New(opts Options) *Fitter {
	if opts.TopK <= 0 {
		opts.TopK = 4096
	}
	f := &Fitter{opts: opts, reads: newTopK(opts.TopK), containers: newTopK(256), life: newLifetimes(opts.TrackPuts)}
	for i := range f.sizes {
		f.sizes[i] = hdrhistogram.New(1, maxSize, 3)
		f.latency[i] = hdrhistogram.New(1, int64(time.Hour/time.Microsecond), 3)
	}
	return f
}

// Add counts one record.
func (f *Fitter) Add(r *proxylog.Record) {
	if !r.Client() {
		f.subs++
		return
	}
	if f.requests == 0 || r.Start.Before(f.first) {
		f.first = r.Start
	}
	if r.Start.After(f.last) {
		f.last = r.Start
	}
	f.requests++
	f.kinds[r.Kind]++
	b := f.tl.at(r.Start)
	b.requests++
	if r.Kind != proxylog.KindObject {
		return
	}
	f.addObject(r, b)
}

// addObject counts a client's object request.
func (f *Fitter) addObject(r *proxylog.Record, b *bucket) {
	op := opIndex(r.Method)
	f.ops[op]++
	b.ops[op]++
	f.status[op][min(max(r.Status/100, 0), 5)]++
	_ = f.latency[op].RecordValue(max(int64(r.RequestTime/time.Microsecond), 1))
	if r.S3 {
		f.s3++
	}
	key := r.Key()
	f.objects.add(key)
	ck := r.ContainerKey()
	f.conts.add(ck)
	f.containers.add(ck)
	if r.Status/100 != 2 {
		return
	}
	switch Ops[op] {
	case "GET":
		if r.Status == 200 {
			_ = f.sizes[op].RecordValue(min(r.BytesSent, maxSize))
		}
		f.read(key, r)
	case "HEAD":
		f.read(key, r)
	case "PUT", "POST":
		_ = f.sizes[op].RecordValue(min(r.BytesRecvd, maxSize))
	}
	f.life.add(Ops[op], key, r.Start.UnixNano())
}

// read counts a read of key for popularity.
func (f *Fitter) read(key uint64, r *proxylog.Record) {
	f.reads.add(key)
	if !f.opts.ClearNames {
		return
	}
	if _, ok := f.reads.index[key]; ok && len(f.names) < 4*f.opts.TopK {
		if f.names == nil {
			f.names = map[uint64]string{}
		}
		if _, ok := f.names[key]; !ok {
			f.names[key] = r.Container + "/" + r.Object
		}
	}
}

// objectName is how the fit shows object key: its clear name when asked
// and known, else "h" and its hash.
func (f *Fitter) objectName(key uint64) string {
	if n, ok := f.names[key]; ok {
		return n
	}
	return "h" + strconv.FormatUint(key, 16)
}
