package outparse

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture reads testdata/name as a copy's output: JSON and curl's -w on
// stdout, the others' (wget, iozone) on stderr as the tools print them.
func fixture(t *testing.T, name string) Output {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".json") || strings.HasPrefix(name, "curl") {
		return Output{Stdout: b}
	}
	return Output{Stderr: b}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestBuiltinParsers(t *testing.T) {
	mib, kib := float64(1<<20), float64(1<<10)
	tests := []struct {
		parser, file string
		want         Figures
	}{
		{"wget", "wget.txt", Figures{Throughput: {622 * mib / 1e6, MBps}, "bytes": {67108864, "B"}}},
		{"wget", "wget-bits.txt", Figures{Throughput: {7.44e9 / 8 / 1e6, MBps}}},
		{"wget", "wget-dot-giga.txt", Figures{Throughput: {1.38 * (1 << 30) / 1e6, MBps}}},
		{"wget", "wget-two-files.txt", Figures{Throughput: {631 * mib / 1e6, MBps}, "bytes": {2 * 67108864, "B"}, "files": {2, "count"}}},
		{"curl", "curl.txt", Figures{Throughput: {1700.163761, MBps}, "time_total": {0.039472, "s"}, "size_download": {67108864, "B"}, "time_starttransfer": {0.000334, "s"}}},
		{"curl", "curl-keyed.txt", Figures{Throughput: {1643.536050, MBps}, "http_code": {200, ""}}},
		{"iperf3", "iperf3.json", Figures{Throughput: {20262010117.48941 / 8e6, MBps}, "sent": {20337198582.960636 / 8e6, MBps}, "retransmits": {8, "count"}}},
		{"iperf3", "iperf3-reverse-p2.json", Figures{Throughput: {27757431995.656075 / 8e6, MBps}}},
		{"fio", "fio-read-2jobs.json", Figures{Throughput: {(633102490 + 883011368) / 1e6, MBps}, "read_clat_mean": {(1630871.1875 + 1151350.125) / 2 / 1e9, "s"}, "write": {0, MBps}}},
		{"fio", "fio-randrw.json", Figures{Throughput: {(62179948 + 62038428) / 1e6, MBps}, "write": {62038428 / 1e6, MBps}}},
		{"iozone", "iozone-auto.txt", Figures{Throughput: {1523456 * kib / 1e6, MBps}, "random_write": {401234 * kib / 1e6, MBps}, "reread": {1534567 * kib / 1e6, MBps}}},
		{"iozone", "iozone-gaps.txt", Figures{Throughput: {388000 * kib / 1e6, MBps}, "random_read": {290000 * kib / 1e6, MBps}}},
		{"iozone", "iozone-rows.txt", Figures{"read_102400k_1024k": {819200 * kib / 1e6, MBps}, "write_102400k_4k": {20480 * kib / 1e6, MBps}}},
		{"iozone", "iozone-throughput.txt", Figures{Throughput: {2048000 * kib / 1e6, MBps}, "re_readers": {2150400 * kib / 1e6, MBps}, "initial_writers": {512000 * kib / 1e6, MBps}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p, err := Builtin(tt.parser)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Parse(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for name, w := range tt.want {
				g, ok := got[name]
				if !ok || g.Unit != w.Unit || !near(g.Value, w.Value) {
					t.Errorf("%s = %v (present %v), want %v", name, g, ok, w)
				}
			}
		})
	}
}

func TestParsersRefuse(t *testing.T) {
	tests := []struct{ parser, file, want string }{
		{"wget", "wget-nv.txt", "without -q or -nv"},
		{"wget", "wget-q-bits.txt", "without -q or -nv"},
		{"wget", "wget-q-tty.txt", "without -q or -nv"},
		{"iperf3", "iperf3-refused.json", "Connection refused"},
		{"fio", "iperf3.json", "no jobs"},
		{"iperf3", "curl.txt", "not --json"},
		{"curl", "wget.txt", "no -w output"},
		{"curl", "iperf3.json", "not -w"},
		{"iozone", "curl.txt", "no report table"},
	}
	for _, tt := range tests {
		t.Run(tt.parser+"/"+tt.file, func(t *testing.T) {
			p, _ := Builtin(tt.parser)
			_, err := p.Parse(fixture(t, tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q", err, tt.want)
			}
		})
	}
}

func TestBuiltinUnknown(t *testing.T) {
	if _, err := Builtin("ab"); err == nil || !strings.Contains(err.Error(), "wget") {
		t.Fatalf("error %v, want one listing the built-in parsers", err)
	}
}
