package metrics

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
)

// InfluxMeasurement is the measurement of every point written to
// InfluxDB; a series' name without its "benchbed_" prefix is the field,
// so that VictoriaMetrics' Influx endpoint (measurement_field) names it
// as remote write does.
const InfluxMeasurement = "benchbed"

// TokenEnv holds an InfluxDB v2 token (sent as "Authorization: Token ...",
// never printed nor a label).
const TokenEnv = "BENCHBED_INFLUX_TOKEN"

// Influx is an InfluxDB line-protocol receiver: URL is its write
// endpoint, 1.x's /write?db=DB or v2's /api/v2/write?org=O&bucket=B (or
// VictoriaMetrics' /write).
type Influx struct {
	URL    string
	Client *http.Client // nil: http.DefaultClient
}

var _ Output = (*Influx)(nil)

// Name says "influx URL" (user info and query left out).
func (x *Influx) Name() string { return "influx " + EndpointLabel(x.URL) }

// Probe asks the server's /ping (InfluxDB 1.x and 2.x and VictoriaMetrics
// answer it), then writes nothing to the write endpoint, which a wrong
// path or database refuses.
func (x *Influx) Probe(ctx context.Context) error {
	u, err := url.Parse(x.URL)
	if err != nil {
		return err
	}
	if !strings.HasSuffix(u.Path, "/write") {
		return fmt.Errorf("want a write endpoint (/write?db=DB or /api/v2/write?org=O&bucket=B), not %q", u.Path)
	}
	ping := (&url.URL{Scheme: u.Scheme, Host: u.Host, User: u.User, Path: "/ping"}).String()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ping, nil)
	if err != nil {
		return err
	}
	return post(x.Client, req)
}

// Write sends pts as line protocol, nanosecond timestamps.
func (x *Influx) Write(ctx context.Context, pts []Point) error {
	body, err := EncodeLines(pts)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("User-Agent", "benchbed")
	if tok := os.Getenv(TokenEnv); tok != "" {
		req.Header.Set("Authorization", "Token "+tok)
	}
	return post(x.Client, req)
}

// EncodeLines encodes pts as InfluxDB line protocol (lineprotocol's
// encoder: escaping, tag order and number formats are its).
func EncodeLines(pts []Point) ([]byte, error) {
	var enc lineprotocol.Encoder
	enc.SetPrecision(lineprotocol.Nanosecond)
	for _, p := range pts {
		v, ok := lineprotocol.FloatValue(p.Value)
		if !ok {
			continue // NaN or Inf: the protocol has no such value
		}
		enc.StartLine(InfluxMeasurement)
		for _, l := range p.Labels {
			enc.AddTag(l.Name, l.Value)
		}
		enc.AddField(strings.TrimPrefix(p.Name, InfluxMeasurement+"_"), v)
		enc.EndLine(p.Time)
	}
	return enc.Bytes(), enc.Err()
}
