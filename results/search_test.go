package results

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"benchbed/plan/slo"
)

// model is a synthetic target: a p99 of 10 ms up to its capacity, then
// growing with the overload; a load generator that offers at most client
// req/s (its CPU then 100 %, else in proportion).
type model struct {
	capacity, client float64
	failConfirm      bool // every confirming run misses (an unstable target)
	probes           int
}

func (m *model) probe(_ context.Context, rate float64) (ProbeOutcome, error) {
	m.probes++
	achieved := min(rate, m.client, m.capacity*1.02)
	cpu := math.Min(1, rate/m.client)
	p99 := 0.010
	if rate > m.capacity {
		p99 += (rate/m.capacity - 1) * 2 // 5 % over: +100 ms
	}
	o := OpSummary{Count: int64(achieved * 20), ReqPerS: achieved, FirstByte: Stats{P50: 0.005, P99: p99}}
	return ProbeOutcome{Total: o, DurationS: 20, ClientCPU: &cpu}, nil
}

func search(m *model, from, to float64) *Search {
	o, _ := slo.Parse("first_byte_p99<50ms,errors<0.1%")
	return &Search{SLO: o, From: from, To: to, Probe: m.probe}
}

func TestSearchFindsTheCapacity(t *testing.T) {
	for _, c := range []struct{ capacity, from, to float64 }{{1234, 100, 20000}, {150, 100, 20000}, {19000, 100, 20000}, {777, 10, 800}} {
		m := &model{capacity: c.capacity, client: 1e9}
		res, err := search(m, c.from, c.to).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		// 5 % over the capacity misses the SLO (p99 110 ms), so the
		// answer lies within a resolution step under the capacity.
		if res.Outcome != OutcomeCapacity || res.Capacity > c.capacity*1.025 || res.Capacity < c.capacity/1.05/1.025 {
			t.Errorf("capacity %g: found %+v", c.capacity, res)
		}
		last := res.Probes[len(res.Probes)-1]
		if last.Role != roleConfirm || !last.Pass || last.Offered != res.Capacity {
			t.Errorf("capacity %g: the last probe %+v is no passing confirmation", c.capacity, last)
		}
		if m.probes != len(res.Probes) || m.probes > 16 {
			t.Errorf("capacity %g: %d probes run, %d recorded (want every one, at most 16)", c.capacity, m.probes, len(res.Probes))
		}
	}
}

func TestSearchNoRateMeetsTheSLO(t *testing.T) {
	m := &model{capacity: 50, client: 1e9}
	res, err := search(m, 100, 20000).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeNone || res.Capacity != 0 || len(res.Probes) != 1 || res.Probes[0].Pass {
		t.Fatalf("%+v", res)
	}
	if !strings.Contains(res.Why, "first_byte_p99") || res.Probes[0].FirstByte.P99 < 0.05 {
		t.Errorf("the lowest probe's figures are not said: %q %+v", res.Why, res.Probes[0])
	}
}

func TestSearchAboveTo(t *testing.T) {
	res, err := search(&model{capacity: 1e6, client: 1e9}, 100, 5000).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeAboveTo || res.Capacity != 5000 {
		t.Errorf("%+v", res)
	}
}

func TestSearchStopsWhenClientBound(t *testing.T) {
	m := &model{capacity: 5000, client: 900}
	res, err := search(m, 100, 20000).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	last := res.Probes[len(res.Probes)-1]
	if res.Outcome != OutcomeClientBound || !last.ClientBound || res.Capacity != 800 || last.Offered != 1600 {
		t.Fatalf("%+v", res)
	}
	if !strings.Contains(last.Why, "load generator's CPU 100%") || !strings.Contains(res.Why, "at least 800") {
		t.Errorf("why: %q; %q", last.Why, res.Why)
	}
}

func TestSearchUnconfirmed(t *testing.T) {
	m := &model{capacity: 1000, client: 1e9}
	s := search(m, 100, 20000)
	inner := s.Probe
	s.Probe = func(ctx context.Context, r float64) (ProbeOutcome, error) {
		o, err := inner(ctx, r)
		if m.failConfirm {
			o.Total.FirstByte.P99 = 1
		}
		return o, err
	}
	s.OnProbe = func(p ProbeRecord) { m.failConfirm = m.failConfirm || p.Role == roleBis && p.Offered > 900 && p.Pass }
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeUnconfirmed || res.Probes[len(res.Probes)-1].Role != roleConfirm {
		t.Errorf("%+v", res)
	}
}

func TestSearchProbeError(t *testing.T) {
	one, _ := slo.Parse("errors<1%")
	s := &Search{SLO: one, From: 1, To: 2, Probe: func(context.Context, float64) (ProbeOutcome, error) {
		return ProbeOutcome{}, errors.New("no route")
	}}
	if _, err := s.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "probe at 1 req/s: no route") {
		t.Errorf("%v", err)
	}
	for _, bad := range []*Search{{SLO: one, From: 0, To: 2, Probe: s.Probe}, {SLO: one, From: 3, To: 2, Probe: s.Probe},
		{From: 1, To: 2, Probe: s.Probe}, {SLO: one, From: 1, To: 2}, {SLO: one, From: 1, To: 2, Probe: s.Probe, Resolution: 2}} {
		if _, err := bad.Run(context.Background()); err == nil {
			t.Errorf("%+v ran", bad)
		}
	}
}

func TestParseSLO(t *testing.T) {
	objective, err := slo.Parse("first_byte_p99<50ms, last_byte_p999<1s,errors<0.1%")
	if err != nil {
		t.Fatal(err)
	}
	if got := objective.String(); got != "first_byte_p99<50ms,last_byte_p999<1s,errors<0.1%" {
		t.Errorf("String %q", got)
	}
	ok := OpSummary{Count: 1000, Errors: 1, FirstByte: Stats{P99: 0.049}, LastByte: Stats{P999: 0.5}}
	if err := CheckSLO(objective, ok); err != nil {
		t.Errorf("within: %v", err)
	}
	bad := OpSummary{Count: 100, Errors: 1, FirstByte: Stats{P99: 0.05}, LastByte: Stats{P999: 0.5}}
	if err := CheckSLO(objective, bad); err == nil || !strings.Contains(err.Error(), "first_byte_p99 50ms >= 50ms") || !strings.Contains(err.Error(), "errors 0.99% > 0.1%") {
		t.Errorf("missed: %v", err)
	}
	if err := CheckSLO(objective, OpSummary{Errors: 5}); err == nil || !strings.Contains(err.Error(), "no operation succeeded") {
		t.Errorf("all failed: %v", err)
	}
	for _, s := range []string{"first_byte_p98<1s", "p99<1s", "first_byte_p99=1s", "first_byte_p99<fast", "errors<120%", "first_byte_p99<-1s"} {
		if _, err := slo.Parse(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}
