package metrics

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"
)

// Families groups points into gauge families by name (in name order),
// each series' samples in time order; withTime gives each sample its
// timestamp (a file to backfill), else none (a scrape's).
func Families(pts []Point, withTime bool) []*dto.MetricFamily {
	byName := map[string][]Point{}
	for _, p := range pts {
		byName[p.Name] = append(byName[p.Name], p)
	}
	var out []*dto.MetricFamily
	for _, name := range sortedKeys(byName) {
		ps := byName[name]
		slices.SortStableFunc(ps, func(a, b Point) int {
			if c := strings.Compare(a.Key(), b.Key()); c != 0 {
				return c
			}
			return a.Time.Compare(b.Time)
		})
		mf := &dto.MetricFamily{Name: proto.String(name), Type: dto.MetricType_GAUGE.Enum()}
		for _, p := range ps {
			m := &dto.Metric{Gauge: &dto.Gauge{Value: proto.Float64(p.Value)}}
			for _, l := range p.Labels {
				m.Label = append(m.Label, &dto.LabelPair{Name: proto.String(l.Name), Value: proto.String(l.Value)})
			}
			if withTime {
				m.TimestampMs = proto.Int64(p.Time.UnixMilli())
			}
			mf.Metric = append(mf.Metric, m)
		}
		out = append(out, mf)
	}
	return out
}

// WriteOpenMetrics writes pts as an OpenMetrics text file with timestamps
// and its # EOF, which `promtool tsdb create-blocks-from openmetrics`
// backfills.
func WriteOpenMetrics(w io.Writer, pts []Point) error {
	for _, mf := range Families(pts, true) {
		if _, err := expfmt.MetricFamilyToOpenMetrics(w, mf); err != nil {
			return err
		}
	}
	_, err := expfmt.FinalizeOpenMetrics(w)
	return err
}

// staleAfter is how long a series stays on the /metrics page after its
// last point (a phase that ended leaves it).
const staleAfter = 10 * time.Second

// Scrape is an Output that keeps each series' latest value and serves
// them as a /metrics page (OpenMetrics text, or Prometheus' text format
// to a client that does not ask for it). A series whose last point is
// staleAfter older than the newest batch's leaves the page: the page
// holds what is running, its size does not grow with the run.
type Scrape struct {
	Addr   string
	mu     sync.Mutex
	latest map[string]Point
}

var _ Output = (*Scrape)(nil)

// Name says "metrics endpoint ADDR".
func (s *Scrape) Name() string { return "metrics endpoint " + s.Addr }

// Probe has nothing to ask: the listener is the caller's.
func (s *Scrape) Probe(context.Context) error { return nil }

// Write keeps pts as their series' latest values.
func (s *Scrape) Write(_ context.Context, pts []Point) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.latest == nil {
		s.latest = map[string]Point{}
	}
	var newest time.Time
	for _, p := range pts {
		k := p.Key()
		if old, ok := s.latest[k]; !ok || !p.Time.Before(old.Time) {
			s.latest[k] = p
		}
		if p.Time.After(newest) {
			newest = p.Time
		}
	}
	for k, p := range s.latest {
		if newest.Sub(p.Time) > staleAfter {
			delete(s.latest, k)
		}
	}
	return nil
}

// ServeHTTP writes the page in the format the scraper asked for.
func (s *Scrape) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	pts := make([]Point, 0, len(s.latest))
	for _, p := range s.latest {
		pts = append(pts, p)
	}
	s.mu.Unlock()
	format := expfmt.NegotiateAccept(r.Header, expfmt.DefaultOpenMetricsAcceptedFormats()...)
	w.Header().Set("Content-Type", string(format))
	enc := expfmt.NewEncoder(w, format)
	for _, mf := range Families(pts, false) {
		if err := enc.Encode(mf); err != nil {
			return
		}
	}
	if c, ok := enc.(expfmt.Closer); ok {
		_ = c.Close()
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
