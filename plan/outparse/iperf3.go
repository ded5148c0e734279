package outparse

import (
	"encoding/json"
	"errors"
	"fmt"
)

// iperf3End is the part of iperf3 --json's report parseIperf3 reads: the
// totals at the end, TCP (sum_sent, sum_received) or UDP (sum).
type iperf3End struct {
	Error string `json:"error"`
	End   struct {
		SumSent     *iperf3Sum `json:"sum_sent"`
		SumReceived *iperf3Sum `json:"sum_received"`
		Sum         *iperf3Sum `json:"sum"`
	} `json:"end"`
}

// iperf3Sum is one of iperf3's totals.
type iperf3Sum struct {
	Seconds       float64  `json:"seconds"`
	Bytes         float64  `json:"bytes"`
	BitsPerSecond float64  `json:"bits_per_second"`
	Retransmits   *float64 `json:"retransmits"`
	LostPercent   *float64 `json:"lost_percent"`
	JitterMs      *float64 `json:"jitter_ms"`
}

// parseIperf3 reads iperf3 --json: throughput is what the receiver got
// (sum_received; with -R that is this host), sent what the sender put on
// the wire, both in MB/s; retransmits for TCP, lost_percent and jitter for
// UDP. A report with an "error" is an error, whatever iperf3's exit status.
func parseIperf3(out Output) (Figures, error) {
	var r iperf3End
	if err := json.Unmarshal(out.Stdout, &r); err != nil {
		return nil, fmt.Errorf("iperf3: not --json output: %w", err)
	}
	if r.Error != "" {
		return nil, errors.New("iperf3: " + r.Error)
	}
	recv, sent := r.End.SumReceived, r.End.SumSent
	if recv == nil {
		recv, sent = r.End.Sum, r.End.Sum
	}
	if recv == nil {
		return nil, errors.New("iperf3: no end.sum_received nor end.sum in the report")
	}
	figs := Figures{
		Throughput: rate(recv.BitsPerSecond, "bit/s"),
		"bytes":    {Value: recv.Bytes, Unit: "B"},
		"seconds":  {Value: recv.Seconds, Unit: "s"},
	}
	if sent != nil {
		figs["sent"] = rate(sent.BitsPerSecond, "bit/s")
		if sent.Retransmits != nil {
			figs["retransmits"] = Figure{Value: *sent.Retransmits, Unit: "count"}
		}
	}
	if recv.LostPercent != nil {
		figs["lost"] = Figure{Value: *recv.LostPercent, Unit: "%"}
	}
	if recv.JitterMs != nil {
		figs["jitter"] = Figure{Value: *recv.JitterMs / 1e3, Unit: "s"}
	}
	return figs, nil
}
