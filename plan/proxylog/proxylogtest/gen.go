// Package proxylogtest generates synthetic Swift proxy access logs of a
// known mix, size distribution, popularity skew and rate, line by line as
// they are read (never held whole), for the tests of the packages that
// read and fit them.
package proxylogtest

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"benchbed/plan/scenario"
)

// Spec is a synthetic log: every line a client's object request unless
// one of the Every fields makes it something else.
type Spec struct {
	Name         string             // the log's name in messages
	Lines        int64              // lines in all
	Start        time.Time          // the first request's start
	Rates        []float64          // requests a second, one per phase of PhaseSeconds, cycling
	PhaseSeconds float64            // each rate's phase
	Mix          map[string]float64 // method weights of the client object requests (GET, PUT, HEAD, DELETE)
	SizeMin      int64              // PUT and successful GET bodies: log-uniform over [SizeMin, SizeMax]
	SizeMax      int64
	Objects      int64   // objects the requests name
	Zipf         float64 // popularity exponent over the objects
	Containers   int64   // containers the objects spread over
	NotFound     float64 // share of GETs answered 404 (a small body)
	SubEvery     int64   // every SubEvery-th line a middleware's subrequest (source SLO); 0 none
	AuthEvery    int64   // every AuthEvery-th line an auth request; 0 none
	GarbleEvery  int64   // every GarbleEvery-th line garbled; 0 none
	Syslog       bool    // lines behind a syslog prefix
	Account      string  // the account in paths (AUTH_secretacct by default)
	Token        string  // the auth token logged (a secret by default)
	Seed         uint64
}

// SizeQuantile is the size distribution's quantile q (0 to 1).
func (s Spec) SizeQuantile(q float64) float64 {
	return float64(s.SizeMin) * math.Pow(float64(s.SizeMax)/float64(s.SizeMin), q)
}

// gen is a Spec being written.
type gen struct {
	s       Spec
	rng     *rand.Rand
	methods []string
	cum     []float64
	i       int64
	t       float64 // seconds since Start
	phase   int
	phaseAt float64 // when the current phase ends
	buf     bytes.Buffer
}

// Reader returns the log as a reader that writes each line when read.
func (s Spec) Reader() io.Reader {
	if s.Account == "" {
		s.Account = "AUTH_secretacct"
	}
	if s.Token == "" {
		s.Token = "AUTH_tk5ecre7t0ken5ecre7t0ken00"
	}
	if s.PhaseSeconds <= 0 {
		s.PhaseSeconds = math.Inf(1)
	}
	g := &gen{s: s, rng: rand.New(rand.NewPCG(s.Seed, 7)), phaseAt: s.PhaseSeconds}
	g.methods = make([]string, 0, len(s.Mix))
	for m := range s.Mix {
		g.methods = append(g.methods, m)
	}
	slices.Sort(g.methods)
	acc, sum := 0.0, 0.0
	for _, m := range g.methods {
		sum += s.Mix[m]
	}
	for _, m := range g.methods {
		acc += s.Mix[m] / sum
		g.cum = append(g.cum, acc)
	}
	return g
}

// Read fills p with the next lines.
func (g *gen) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && g.i < g.s.Lines {
		g.line()
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	return g.buf.Read(p)
}

// line writes line g.i and advances the clock.
func (g *gen) line() {
	g.i++
	start := g.s.Start.Add(time.Duration(g.t * float64(time.Second)))
	g.tick()
	if g.s.Syslog {
		fmt.Fprintf(&g.buf, "%s lab-proxy1 proxy-server: ", start.Format(time.Stamp))
	}
	switch {
	case every(g.i, g.s.GarbleEvery):
		fmt.Fprintf(&g.buf, "garbled %s line %d\n", g.s.Token, g.i)
	case every(g.i, g.s.AuthEvery):
		g.write(start, "GET", "/auth/v1.0", 200, 0, 0, "")
	case every(g.i, g.s.SubEvery):
		g.write(start, "GET", g.path(g.object())+"/seg", 200, 0, g.size(), "SLO")
	default:
		g.objectRequest(start)
	}
}

// every reports whether i is a multiple of n > 0.
func every(i, n int64) bool { return n > 0 && i%n == 0 }

// tick advances the clock by one request at the phase's rate.
func (g *gen) tick() {
	g.t += 1 / g.s.Rates[g.phase%len(g.s.Rates)]
	if g.t >= g.phaseAt {
		g.phase++
		g.phaseAt += g.s.PhaseSeconds
	}
}

// objectRequest writes a client's request on an object.
func (g *gen) objectRequest(start time.Time) {
	u := g.rng.Float64()
	m := g.methods[len(g.methods)-1]
	for i, c := range g.cum {
		if u < c {
			m = g.methods[i]
			break
		}
	}
	p := g.path(g.object())
	switch m {
	case "PUT":
		g.write(start, m, p, 201, g.size(), 0, "")
	case "GET":
		if g.rng.Float64() < g.s.NotFound {
			g.write(start, m, p, 404, 0, 70, "")
			return
		}
		g.write(start, m, p, 200, 0, g.size(), "")
	case "DELETE":
		g.write(start, m, p, 204, 0, 0, "")
	default:
		g.write(start, m, p, 200, 0, 0, "")
	}
}

// object draws an object number by the Zipf law.
func (g *gen) object() int64 {
	return scenario.ZipfRank(g.rng.Float64(), g.s.Objects, g.s.Zipf)
}

// path is object k's path.
func (g *gen) path(k int64) string {
	return fmt.Sprintf("/v1/%s/c%d/obj%%20%d", g.s.Account, k%max(g.s.Containers, 1), k)
}

// size draws a body size.
func (g *gen) size() int64 {
	return int64(math.Round(g.s.SizeQuantile(g.rng.Float64())))
}

// write writes one line of the default template.
func (g *gen) write(start time.Time, method, path string, status int, recvd, sent int64, source string) {
	took := 0.001 + 0.01*g.rng.Float64()
	end := start.Add(time.Duration(took * float64(time.Second)))
	fmt.Fprintf(&g.buf, "127.0.0.1 127.0.0.1 %s %s %s HTTP/1.0 %d - python-swiftclient %s %s %s - tx%x - %.4f %s - %s %s 0\n",
		end.UTC().Format("02/Jan/2006/15/04/05"), method, path, status, g.s.Token,
		dash(recvd), dash(sent), g.i, took, dashS(source), epoch(start), epoch(end))
}

func dash(n int64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

func dashS(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func epoch(t time.Time) string { return fmt.Sprintf("%d.%09d", t.Unix(), t.Nanosecond()) }
