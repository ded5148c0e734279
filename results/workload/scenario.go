package workload

import (
	"fmt"
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"benchbed/plan/scenario"
)

// classCuts are the quantiles of the object sizes that bound the fitted
// size classes: deciles, and finer in the tail where sizes spread most.
var classCuts = []float64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 100}

// ScenarioOptions shape the scenario a fit writes.
type ScenarioOptions struct {
	Name          string // the scenario's name (default "fitted from proxy logs")
	MaxObjects    int    // initial objects at most (default 10000; else the distinct objects named)
	MaxContainers int    // containers at most (default 100; else the distinct containers)
}

// class is a fitted size class: its bounds and operations.
type sizeClass struct {
	lo, hi             int64
	puts, gets, delete float64
}

// Scenario writes the fit as a scenario benchbed runs: size classes whose
// uniform ranges follow the logged size quantiles, each with the crud
// profile of the operations on its sizes (a PUT over an object the logs
// put before is an update, the rest creates), the HEAD share, the Zipf
// popularity and the object requests' rate profile (benchbed's
// extensions). POST, COPY and other methods have no place in it and are
// left out (the fit's summary still counts them).
func (f *Fitter) Scenario(fit *Fit, o ScenarioOptions) (*scenario.Scenario, error) {
	o = o.withDefaults()
	get, put := f.sizes[opIndex("GET")], f.sizes[opIndex("PUT")]
	nGet, nPut := float64(f.ops[opIndex("GET")]), float64(f.ops[opIndex("PUT")])
	nDel, nHead := float64(f.ops[opIndex("DELETE")]), float64(f.ops[opIndex("HEAD")])
	if nGet+nPut+nDel == 0 {
		return nil, fmt.Errorf("workload: the logs have no client GET, PUT or DELETE of an object to fit")
	}
	classes := sizeClasses(get, put)
	spread(classes, nDel, nHead, nGet, nPut)
	s := &scenario.Scenario{Name: o.Name, InitialFiles: map[string]int{}, CrudProfile: []float64{1, 1, 0, 1},
		ContainerBase: scenario.DefaultContainerBase, ContainerConcurrency: scenario.DefaultContainerConcurrency,
		BlockSize: scenario.DefaultBlockSize}
	objects := int(math.Min(math.Max(fit.Popularity.Objects, 1), float64(o.MaxObjects)))
	s.ContainerCount = int(math.Min(math.Max(fit.Popularity.Containers, 1), float64(o.MaxContainers)))
	total := 0.0
	for _, c := range classes {
		total += c.puts + c.gets + c.delete
	}
	update := 0.0 // the share of PUTs that overwrite
	if n := float64(put.TotalCount()); n > 0 {
		update = math.Min(float64(fit.Lifetimes.Overwrites)/n, 1)
	}
	for i, c := range classes {
		w := c.puts + c.gets + c.delete
		if w == 0 {
			continue
		}
		name := fmt.Sprintf("s%02d", i)
		s.Sizes = append(s.Sizes, scenario.Size{Name: name, SizeMin: c.lo, SizeMax: c.hi,
			CrudProfile: []float64{round3(c.puts * (1 - update)), round3(c.gets), round3(c.puts * update), round3(c.delete)}})
		s.InitialFiles[name] = max(1, int(math.Round(float64(objects)*w/total)))
	}
	if nHead > 0 {
		s.HeadShare = round3(nHead / (nHead + nGet + nPut + nDel))
	}
	if z := fit.Popularity.Zipf; z > 0 {
		s.Popularity = &scenario.Popularity{Zipf: z}
	}
	f.addRate(s, fit)
	return s, s.Validate()
}

func (o ScenarioOptions) withDefaults() ScenarioOptions {
	if o.Name == "" {
		o.Name = "fitted from proxy logs"
	}
	if o.MaxObjects <= 0 {
		o.MaxObjects = 10000
	}
	if o.MaxContainers <= 0 {
		o.MaxContainers = 100
	}
	return o
}

// sizeClasses cuts the GET and PUT sizes together at classCuts and counts
// each op's sizes in each class.
func sizeClasses(get, put *hdrhistogram.Histogram) []*sizeClass {
	all := get.Clone()
	all.Merge(put)
	if all.TotalCount() == 0 { // deletes only: one class of empty objects
		return []*sizeClass{{}}
	}
	var out []*sizeClass
	lo := all.Min()
	for _, q := range classCuts[1:] {
		hi := all.ValueAtQuantile(q)
		if q == 100 {
			hi = all.Max()
		}
		if len(out) > 0 && hi <= out[len(out)-1].hi {
			continue
		}
		out = append(out, &sizeClass{lo: lo, hi: hi})
		lo = hi + 1
	}
	count := func(h *hdrhistogram.Histogram, add func(*sizeClass, float64)) {
		for _, b := range h.Distribution() {
			if b.Count > 0 {
				add(classOf(out, b.To), float64(b.Count))
			}
		}
	}
	count(get, func(c *sizeClass, n float64) { c.gets += n })
	count(put, func(c *sizeClass, n float64) { c.puts += n })
	return out
}

// classOf is the class holding size v (the last for any larger).
func classOf(cs []*sizeClass, v int64) *sizeClass {
	for _, c := range cs {
		if v <= c.hi {
			return c
		}
	}
	return cs[len(cs)-1]
}

// spread gives each class its share of the DELETEs, which have no size:
// in proportion to its PUTs (the objects deleted were put), else to its
// GETs. Classes with no size counted (only failures logged) get them
// evenly.
func spread(cs []*sizeClass, nDel, _, nGet, nPut float64) {
	for _, c := range cs {
		switch {
		case nPut > 0:
			c.delete = nDel * c.puts / sizeCount(cs, true)
		case nGet > 0 && sizeCount(cs, false) > 0:
			c.delete = nDel * c.gets / sizeCount(cs, false)
		default:
			c.delete = nDel / float64(len(cs))
		}
	}
}

// sizeCount is the PUT (or GET) sizes counted over every class.
func sizeCount(cs []*sizeClass, puts bool) float64 {
	n := 0.0
	for _, c := range cs {
		if puts {
			n += c.puts
		} else {
			n += c.gets
		}
	}
	return max(n, 1)
}

// addRate sets the scenario's run time and its rate profile: the object
// requests' rate by interval.
func (f *Fitter) addRate(s *scenario.Scenario, fit *Fit) {
	p := fit.Profile
	s.RunSeconds = math.Max(math.Ceil(p.Interval*float64(len(p.ObjectRates))), 1)
	if len(p.ObjectRates) > 0 {
		s.RateProfile = &scenario.RateProfile{Interval: p.Interval, Rates: p.ObjectRates}
	}
	peak := 0.0
	for _, r := range p.ObjectRates {
		peak = max(peak, r)
	}
	lat := 0.0
	for _, op := range fit.Ops {
		if op.Latency != nil {
			lat = max(lat, op.Latency.P99)
		}
	}
	s.UserCount = int(math.Min(math.Max(math.Ceil(2*peak*(lat+0.05)), 4), 1000))
}
