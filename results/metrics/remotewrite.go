package metrics

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"

	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"
)

// RemoteWrite is a Prometheus remote write 1.0 receiver (Prometheus with
// --web.enable-remote-write-receiver at /api/v1/write, VictoriaMetrics at
// /api/v1/write): a prometheus.WriteRequest in protobuf, snappy block
// compressed.
type RemoteWrite struct {
	URL    string
	Client *http.Client // nil: http.DefaultClient
}

var _ Output = (*RemoteWrite)(nil)

// Name says "remote write URL" (user info and query left out).
func (r *RemoteWrite) Name() string { return "remote write " + EndpointLabel(r.URL) }

// Probe writes an empty request: a receiver that is not there, or does
// not take remote write (404, 405, 415...), fails it.
func (r *RemoteWrite) Probe(ctx context.Context) error { return r.Write(ctx, nil) }

// Write sends pts as one WriteRequest.
func (r *RemoteWrite) Write(ctx context.Context, pts []Point) error {
	body := snappy.Encode(nil, EncodeWriteRequest(pts))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	req.Header.Set("User-Agent", "benchbed")
	return post(r.Client, req)
}

// post does req and wants a 2xx answer.
func post(c *http.Client, req *http.Request) error {
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}

// EncodeWriteRequest encodes pts as a remote write 1.0 WriteRequest
// (prometheus/prompb/remote.proto: timeseries = 1; a TimeSeries' labels = 1,
// samples = 2; a Label's name = 1, value = 2; a Sample's value = 1,
// timestamp = 2 in ms), one TimeSeries per series with its samples in
// time order and its labels sorted, __name__ first.
func EncodeWriteRequest(pts []Point) []byte {
	var order []string
	series := map[string][]Point{}
	for _, p := range pts {
		k := p.Key()
		if _, ok := series[k]; !ok {
			order = append(order, k)
		}
		series[k] = append(series[k], p)
	}
	var out, ts []byte
	for _, k := range order {
		ps := series[k]
		ts = ts[:0]
		ts = appendLabel(ts, "__name__", ps[0].Name)
		for _, l := range ps[0].Labels {
			ts = appendLabel(ts, l.Name, l.Value)
		}
		for _, p := range sortedByTime(ps) {
			var s []byte
			s = protowire.AppendTag(s, 1, protowire.Fixed64Type)
			s = protowire.AppendFixed64(s, math.Float64bits(p.Value))
			s = protowire.AppendTag(s, 2, protowire.VarintType)
			s = protowire.AppendVarint(s, uint64(p.Time.UnixMilli()))
			ts = protowire.AppendTag(ts, 2, protowire.BytesType)
			ts = protowire.AppendBytes(ts, s)
		}
		out = protowire.AppendTag(out, 1, protowire.BytesType)
		out = protowire.AppendBytes(out, ts)
	}
	return out
}

// appendLabel appends a TimeSeries' Label field.
func appendLabel(b []byte, name, value string) []byte {
	var l []byte
	l = protowire.AppendTag(l, 1, protowire.BytesType)
	l = protowire.AppendString(l, name)
	l = protowire.AppendTag(l, 2, protowire.BytesType)
	l = protowire.AppendString(l, value)
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendBytes(b, l)
}

// sortedByTime returns ps in time order (stable).
func sortedByTime(ps []Point) []Point {
	slices.SortStableFunc(ps, func(a, b Point) int { return a.Time.Compare(b.Time) })
	return ps
}
