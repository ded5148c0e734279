package metrics

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang/snappy"
	"github.com/influxdata/line-protocol/v2/lineprotocol"
	"google.golang.org/protobuf/encoding/protowire"
)

func samplePoints() []Point {
	t0 := time.UnixMilli(1_700_000_000_123)
	ls := labelSet(State{Run: "r", Cell: "c 1", Phase: PhaseRun}.labels(), LabelOp, "GET")
	return []Point{
		{Name: SeriesReqPerS, Labels: ls, Value: 12.5, Time: t0.Add(time.Second)},
		{Name: SeriesReqPerS, Labels: ls, Value: 10, Time: t0},
		{Name: SeriesState, Labels: ls, Value: 1, Time: t0},
	}
}

// fields reads one protobuf message's length-delimited or scalar fields
// in order: field number and its bytes (or value as 8 bytes / varint).
func fields(t *testing.T, b []byte) (nums []protowire.Number, vals [][]byte, ints []uint64) {
	t.Helper()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case protowire.Fixed64Type:
			x, n = protowire.ConsumeFixed64(b)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			t.Fatalf("unexpected wire type %v", typ)
		}
		if n < 0 {
			t.Fatalf("bad field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
		nums, vals, ints = append(nums, num), append(vals, v), append(ints, x)
	}
	return nums, vals, ints
}

// decodeWriteRequest reads a WriteRequest back: "name{l=v,...}" ->
// samples "value@ms".
func decodeWriteRequest(t *testing.T, b []byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	_, series, _ := fields(t, b)
	for _, ts := range series {
		nums, vals, _ := fields(t, ts)
		var key string
		var samples []string
		for i, num := range nums {
			_, kv, x := fields(t, vals[i])
			if num == 1 {
				key += string(kv[0]) + "=" + string(kv[1]) + ","
				continue
			}
			samples = append(samples, fmt.Sprintf("%g@%d", math.Float64frombits(x[0]), x[1]))
		}
		out[key] = samples
	}
	return out
}

func TestEncodeWriteRequest(t *testing.T) {
	got := decodeWriteRequest(t, EncodeWriteRequest(samplePoints()))
	key := "__name__=benchbed_requests_per_second,cell=c 1,op=GET,phase=run,run=r,"
	if s := got[key]; len(got) != 2 || len(s) != 2 || s[0] != "10@1700000000123" || s[1] != "12.5@1700000001123" {
		t.Fatalf("decoded %v, want %s with 10 then 12.5 in time order", got, key)
	}
}

func TestEncodeLines(t *testing.T) {
	b, err := EncodeLines(samplePoints())
	if err != nil {
		t.Fatal(err)
	}
	dec := lineprotocol.NewDecoderWithBytes(b)
	var n int
	for dec.Next() {
		m, err := dec.Measurement()
		if err != nil || string(m) != InfluxMeasurement {
			t.Fatalf("measurement %q, %v", m, err)
		}
		tags := map[string]string{}
		for {
			k, v, err := dec.NextTag()
			if err != nil {
				t.Fatal(err)
			}
			if k == nil {
				break
			}
			tags[string(k)] = string(v)
		}
		k, _, err := dec.NextField()
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 && (string(k) != "requests_per_second" || tags["cell"] != "c 1" || tags["op"] != "GET") {
			t.Errorf("first line: field %s tags %v", k, tags)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("%d lines, want 3:\n%s", n, b)
	}
}

func TestOpenMetricsFile(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteOpenMetrics(&buf, samplePoints()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasSuffix(out, "# EOF\n") || !strings.Contains(out, `benchbed_requests_per_second{cell="c 1",op="GET",phase="run",run="r"} 10.0 1.700000000123e+09`) {
		t.Fatalf("OpenMetrics file:\n%s", out)
	}
}

func TestScrapePage(t *testing.T) {
	s := &Scrape{Addr: "127.0.0.1:0"}
	if err := s.Write(context.Background(), samplePoints()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/openmetrics-text") {
		t.Errorf("content type %q", resp.Header.Get("Content-Type"))
	}
	// The latest value of the series, as a scrape sees it.
	if !strings.Contains(string(body), `benchbed_requests_per_second{cell="c 1",op="GET",phase="run",run="r"} 12.5`) {
		t.Fatalf("page:\n%s", body)
	}
}

// blocking is an Output whose writes say they began (entered, when not
// nil) and wait for release.
type blocking struct {
	entered chan struct{}
	release chan struct{}
	mu      sync.Mutex
	batches int
	fail    bool
}

func (b *blocking) Name() string                { return "blocking" }
func (b *blocking) Probe(context.Context) error { return nil }
func (b *blocking) Write(ctx context.Context, _ []Point) error {
	if b.entered != nil {
		b.entered <- struct{}{}
	}
	select {
	case <-b.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.batches++
	if b.fail {
		return errors.New("refused")
	}
	return nil
}

func TestExporterDropsWhenFullAndCounts(t *testing.T) {
	out := &blocking{entered: make(chan struct{}, 1), release: make(chan struct{})}
	e := NewExporter(2, out)
	e.Send(samplePoints())
	<-out.entered // the first batch is in flight, held by the receiver
	for range 9 {
		e.Send(samplePoints()) // never blocks
	}
	out.entered = nil
	close(out.release)
	st := e.Close(time.Minute)
	if len(st) != 1 || st[0].Sent != 3 || st[0].Dropped != 7 {
		t.Fatalf("stats %+v: want 3 sent (one in flight, a queue of 2) and 7 dropped", st)
	}
	if !strings.Contains(st[0].String(), "dropped") {
		t.Errorf("report %q", st[0])
	}
}

func TestExporterCountsRefusedAsDropped(t *testing.T) {
	out := &blocking{release: make(chan struct{}), fail: true}
	close(out.release)
	e := NewExporter(0, out)
	e.Send(samplePoints())
	st := e.Close(time.Minute)
	if st[0].Dropped != 1 || st[0].Sent != 0 || st[0].LastError != "refused" {
		t.Fatalf("stats %+v, want one dropped batch, refused", st)
	}
}

func TestRemoteWriteAgainstHandler(t *testing.T) {
	var got map[string][]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Encoding") != "snappy" || r.Header.Get("X-Prometheus-Remote-Write-Version") != "0.1.0" {
			http.Error(w, "headers", http.StatusBadRequest)
			return
		}
		b, _ := io.ReadAll(r.Body)
		raw, err := snappy.Decode(nil, b)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got = decodeWriteRequest(t, raw)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	rw := &RemoteWrite{URL: srv.URL + "/api/v1/write", Client: srv.Client()}
	if err := rw.Write(context.Background(), samplePoints()); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("received %v", got)
	}
	nf := httptest.NewServer(http.NotFoundHandler())
	defer nf.Close()
	if err := (&RemoteWrite{URL: nf.URL + "/api/v1/write"}).Probe(context.Background()); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("probe of a wrong URL: %v, want a 404", err)
	}
}
