package outparse

import (
	"encoding/json"
	"errors"
	"fmt"
)

// fioReport is the part of fio --output-format=json that parseFio reads.
type fioReport struct {
	Jobs []struct {
		Name  string `json:"jobname"`
		Error int    `json:"error"`
		Read  fioDir `json:"read"`
		Write fioDir `json:"write"`
	} `json:"jobs"`
}

// fioDir is one direction of a fio job. bw is KiB/s (fio before 3.0 has no
// bw_bytes).
type fioDir struct {
	BwBytes *float64 `json:"bw_bytes"`
	Bw      float64  `json:"bw"`
	IOPS    float64  `json:"iops"`
	IOBytes float64  `json:"io_bytes"`
	Clat    struct {
		Mean       float64            `json:"mean"`
		Percentile map[string]float64 `json:"percentile"`
	} `json:"clat_ns"`
}

// mbps is the direction's rate in MB/s.
func (d fioDir) mbps() float64 {
	if d.BwBytes != nil {
		return rate(*d.BwBytes, "B/s").Value
	}
	return rate(d.Bw, "KiB/s").Value
}

// parseFio reads fio's JSON report, summed over its jobs (each job's
// numjobs clones are jobs of their own unless group_reporting merged them):
// read and write in MB/s, their IOPS and bytes; throughput is read plus
// write. Completion latency (mean and 99th percentile, in seconds) is the
// mean over the jobs that did I/O in that direction.
func parseFio(out Output) (Figures, error) {
	var r fioReport
	if err := json.Unmarshal(out.Stdout, &r); err != nil {
		return nil, fmt.Errorf("fio: not --output-format=json output: %w", err)
	}
	if len(r.Jobs) == 0 {
		return nil, errors.New("fio: no jobs in the report")
	}
	figs := Figures{}
	for _, dir := range []string{"read", "write"} {
		var bw, iops, bytes, clat, p99, n float64
		for _, j := range r.Jobs {
			if j.Error != 0 {
				return nil, fmt.Errorf("fio: job %s failed with error %d", j.Name, j.Error)
			}
			d := j.Read
			if dir == "write" {
				d = j.Write
			}
			bw, iops, bytes = bw+d.mbps(), iops+d.IOPS, bytes+d.IOBytes
			if d.IOBytes > 0 {
				clat, p99, n = clat+d.Clat.Mean, p99+d.Clat.Percentile["99.000000"], n+1
			}
		}
		figs[dir] = Figure{Value: bw, Unit: MBps}
		figs[dir+"_iops"] = Figure{Value: iops, Unit: "ops/s"}
		figs[dir+"_bytes"] = Figure{Value: bytes, Unit: "B"}
		if n > 0 {
			figs[dir+"_clat_mean"] = Figure{Value: clat / n / 1e9, Unit: "s"}
			figs[dir+"_clat_p99"] = Figure{Value: p99 / n / 1e9, Unit: "s"}
		}
	}
	figs[Throughput] = Figure{Value: figs["read"].Value + figs["write"].Value, Unit: MBps}
	return figs, nil
}
