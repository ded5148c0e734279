package workload

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"benchbed/plan/proxylog"
)

// Fit is a fitted workload: what `benchbed workload fit` prints and
// writes as JSON. It holds no account name and no token.
type Fit struct {
	Lines        int64            `json:"lines"`
	Records      int64            `json:"records"`
	Garbled      int64            `json:"garbled"`
	FirstGarbled string           `json:"first_garbled,omitempty"`
	Start        time.Time        `json:"start"`
	Seconds      float64          `json:"seconds"`     // from the first client request's start to the last's
	Requests     int64            `json:"requests"`    // client requests of every kind
	Subrequests  int64            `json:"subrequests"` // middleware's (with a source), left out of the rest
	Kinds        map[string]int64 `json:"kinds"`       // client requests by kind: auth, account, container, object, other
	S3           int64            `json:"s3"`          // object requests with an S3-style path
	MeanRate     float64          `json:"mean_rate"`   // client requests a second
	ObjectRate   float64          `json:"object_rate"` // client object requests a second
	Ops          []Op             `json:"ops"`         // object requests by method
	Popularity   Popularity       `json:"popularity"`
	Lifetimes    Lifetimes        `json:"lifetimes"`
	Profile      Profile          `json:"profile"`
}

// Op is one method's share of the client object requests.
type Op struct {
	Method  string           `json:"method"`
	Count   int64            `json:"count"`
	Percent float64          `json:"percent"`
	Status  map[string]int64 `json:"status"`          // "2xx": count
	Sizes   *Quantiles       `json:"sizes,omitempty"` // bodies of its successes (GET: 200s' bytes_sent, PUT: bytes_recvd)
	Latency *Quantiles       `json:"latency_s"`       // request_time, seconds
}

// Quantiles summarise a distribution.
type Quantiles struct {
	Count int64   `json:"count"`
	Mean  float64 `json:"mean"`
	Min   float64 `json:"min"`
	P10   float64 `json:"p10"`
	P25   float64 `json:"p25"`
	P50   float64 `json:"p50"`
	P75   float64 `json:"p75"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
}

// Popularity is how skewed reads are over objects and containers.
type Popularity struct {
	Objects    float64   `json:"objects"`    // distinct objects named (HyperLogLog estimate)
	Containers float64   `json:"containers"` // distinct containers
	Reads      int64     `json:"reads"`      // successful GETs and HEADs
	Zipf       float64   `json:"zipf"`       // exponent fitted to the read counts by rank (0: none fitted)
	ZipfRanks  int       `json:"zipf_ranks"` // ranks the fit used
	Top        []TopItem `json:"top"`        // the hottest objects
	TopShare   []Share   `json:"top_share"`  // reads of the N hottest objects, empirical
}

// TopItem is one hot object: its name hashed (or clear when asked, never
// with its account) and its reads.
type TopItem struct {
	Name  string `json:"name"`
	Reads int64  `json:"reads"`
}

// Share is the share of reads of the N hottest objects.
type Share struct {
	N       int     `json:"n"`
	Percent float64 `json:"percent"`
}

// Lifetimes are the times from an object's PUT to its reads and delete.
type Lifetimes struct {
	PutToGet    *Quantiles `json:"put_to_get_s,omitempty"`
	PutToDelete *Quantiles `json:"put_to_delete_s,omitempty"`
	GetsMatched int64      `json:"gets_matched"` // GETs whose object's PUT was in the logs (and remembered)
	Gets        int64      `json:"gets"`         // successful client GETs
	DelsMatched int64      `json:"deletes_matched"`
	Deletes     int64      `json:"deletes"`
	Forgotten   int64      `json:"forgotten"`  // PUTs forgotten to keep memory flat
	Overwrites  int64      `json:"overwrites"` // successful PUTs over an object the logs put before: updates
}

// Profile is the request rate over time, in intervals.
type Profile struct {
	Interval    float64     `json:"interval_s"`
	Rates       []float64   `json:"rates"`        // client requests a second
	ObjectRates []float64   `json:"object_rates"` // client object requests a second
	Mix         [][]float64 `json:"mix"`          // per interval, the object requests' percent by Ops (GET, PUT, HEAD, DELETE, POST, COPY, OTHER)
}

// Fit returns the workload of the records added; st is the reader's count
// of lines.
func (f *Fitter) Fit(st proxylog.Stats) *Fit {
	out := &Fit{Lines: st.Lines, Records: st.Records, Garbled: st.Garbled, FirstGarbled: st.FirstGarbled,
		Start: f.first, Requests: f.requests, Subrequests: f.subs, S3: f.s3, Kinds: map[string]int64{}}
	for k, n := range f.kinds {
		if n > 0 {
			out.Kinds[proxylog.Kind(k).String()] = n
		}
	}
	out.Seconds = f.last.Sub(f.first).Seconds()
	if out.Seconds > 0 {
		out.MeanRate = float64(f.requests-1) / out.Seconds
		out.ObjectRate = float64(f.kinds[proxylog.KindObject]) / float64(f.requests) * out.MeanRate
	}
	out.Ops = f.fitOps()
	out.Popularity = f.fitPopularity()
	out.Lifetimes = f.fitLifetimes()
	out.Profile = f.fitProfile()
	return out
}

// fitOps is the mix by method, with each method's statuses and sizes.
func (f *Fitter) fitOps() []Op {
	var total int64
	for _, n := range f.ops {
		total += n
	}
	var out []Op
	for i, n := range f.ops {
		if n == 0 {
			continue
		}
		op := Op{Method: Ops[i], Count: n, Percent: 100 * float64(n) / float64(total), Status: map[string]int64{}}
		for c, k := range f.status[i] {
			if k > 0 {
				op.Status[statusClass(c)] = k
			}
		}
		op.Sizes = quantiles(f.sizes[i], 1)
		op.Latency = quantiles(f.latency[i], 1e-6)
		out = append(out, op)
	}
	return out
}

// statusClass names status class c: "2xx" ("other" for 0).
func statusClass(c int) string {
	if c == 0 {
		return "other"
	}
	return string(rune('0'+c)) + "xx"
}

// quantiles summarise h, its values times scale; nil when empty.
func quantiles(h *hdrhistogram.Histogram, scale float64) *Quantiles {
	if h.TotalCount() == 0 {
		return nil
	}
	q := func(p float64) float64 { return float64(h.ValueAtQuantile(p)) * scale }
	return &Quantiles{Count: h.TotalCount(), Mean: h.Mean() * scale, Min: float64(h.Min()) * scale,
		P10: q(10), P25: q(25), P50: q(50), P75: q(75), P90: q(90), P99: q(99), Max: float64(h.Max()) * scale}
}

// fitLifetimes summarises the PUT-to-GET and PUT-to-DELETE times.
func (f *Fitter) fitLifetimes() Lifetimes {
	l := f.life
	return Lifetimes{PutToGet: quantiles(l.toGet, 1e-3), PutToDelete: quantiles(l.toDelete, 1e-3),
		GetsMatched: l.toGet.TotalCount(), Gets: l.gets, DelsMatched: l.toDelete.TotalCount(), Deletes: l.dels,
		Forgotten: l.evicted, Overwrites: l.overwrites}
}

// fitProfile is the timeline as rates and mixes.
func (f *Fitter) fitProfile() Profile {
	w := f.tl.width.Seconds()
	p := Profile{Interval: w}
	for i, b := range f.tl.buckets {
		span := w
		if i == len(f.tl.buckets)-1 { // the last interval is cut at the last request
			span = f.last.Sub(f.tl.origin).Seconds() - float64(i)*w
			if f.requests > 1 && f.last.After(f.first) { // plus one mean gap between requests
				span += f.last.Sub(f.first).Seconds() / float64(f.requests-1)
			}
			span = math.Min(math.Max(span, 1e-3), w)
		}
		p.Rates = append(p.Rates, round3(float64(b.requests)/span))
		var n int64
		for _, k := range b.ops {
			n += k
		}
		p.ObjectRates = append(p.ObjectRates, round3(float64(n)/span))
		mix := make([]float64, len(b.ops))
		for k, c := range b.ops {
			if n > 0 {
				mix[k] = round3(100 * float64(c) / float64(n))
			}
		}
		p.Mix = append(p.Mix, mix)
	}
	return p
}

// round3 rounds x to 3 decimals.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
