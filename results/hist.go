package results

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram range and precision shared by every recorder: 1 us to 1 h in
// microseconds, 3 significant digits.
const (
	HistLowestUS  = 1
	HistHighestUS = int64(time.Hour / time.Microsecond)
	HistSigFigs   = 3
)

// Hist is a latency histogram (HDR, microseconds). It is not safe for
// concurrent use; recorders keep one per goroutine or behind a lock. The
// JSON form is a string: HdrHistogram's V2 compressed encoding in base64.
type Hist struct {
	h *hdrhistogram.Histogram
}

// NewHist returns an empty histogram covering 1 us to 1 h.
func NewHist() *Hist {
	return &Hist{h: hdrhistogram.New(HistLowestUS, HistHighestUS, HistSigFigs)}
}

// Record adds one latency. Values below 1 us count as 1 us and values over
// an hour as an hour, so that nothing recorded is ever dropped.
func (h *Hist) Record(d time.Duration) {
	us := int64(d / time.Microsecond)
	us = max(us, HistLowestUS)
	us = min(us, HistHighestUS)
	_ = h.h.RecordValue(us) // in range by construction
}

// Merge adds every value of o to h.
func (h *Hist) Merge(o *Hist) {
	if o == nil || o.h == nil {
		return
	}
	h.h.Merge(o.h)
}

// Count returns the number of values recorded.
func (h *Hist) Count() int64 { return h.h.TotalCount() }

// Reset empties the histogram, keeping its memory.
func (h *Hist) Reset() { h.h.Reset() }

// Clone returns an independent copy.
func (h *Hist) Clone() *Hist { return &Hist{h: h.h.Clone()} }

// Quantile returns the latency at quantile q (0 to 1).
func (h *Hist) Quantile(q float64) time.Duration {
	return time.Duration(h.h.ValueAtQuantile(q*100)) * time.Microsecond
}

// Stats returns the histogram's statistics in seconds; all zero when empty.
func (h *Hist) Stats() Stats {
	if h.Count() == 0 {
		return Stats{}
	}
	sec := func(us int64) float64 { return float64(us) / 1e6 }
	return Stats{
		Min:    sec(h.h.Min()),
		Max:    sec(h.h.Max()),
		Mean:   round6(h.h.Mean() / 1e6),
		StdDev: round6(h.h.StdDev() / 1e6),
		P50:    sec(h.h.ValueAtQuantile(50)),
		P95:    sec(h.h.ValueAtQuantile(95)),
		P99:    sec(h.h.ValueAtQuantile(99)),
		P999:   sec(h.h.ValueAtQuantile(99.9)),
	}
}

// round6 rounds to the microsecond, the histogram's unit.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// MarshalJSON encodes the histogram as base64 of its V2 compressed form.
func (h *Hist) MarshalJSON() ([]byte, error) {
	b, err := h.h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return nil, fmt.Errorf("histogram: %w", err)
	}
	return json.Marshal(base64.StdEncoding.EncodeToString(b))
}

// UnmarshalJSON decodes what MarshalJSON wrote. A histogram of another range
// or precision is merged into a standard one so that all merge alike.
func (h *Hist) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	d, err := hdrhistogram.Decode(raw)
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	n := NewHist()
	if dropped := n.h.Merge(d); dropped != 0 {
		return fmt.Errorf("histogram: %d values outside 1 us to 1 h", dropped)
	}
	h.h = n.h
	return nil
}
