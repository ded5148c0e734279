package outparse

import (
	"errors"
	"regexp"
	"strconv"
)

// wgetSaved is wget's line for one file: "... (622 MB/s) - '/dev/null'
// saved [67108864/67108864]" (rate with 1024-based units, or 1000-based
// bits with --report-speed=bits).
var wgetSaved = regexp.MustCompile(`\(([0-9.]+) ([KMG]?[Bb]/s)\) - .* saved \[([0-9]+)(?:/[0-9]+)?\]`)

// wgetTotal is wget's summary after several files: "Downloaded: 2 files,
// 128M in 0.1s (1.2 GB/s)".
var wgetTotal = regexp.MustCompile(`Downloaded: [0-9]+ files?, .* in .* \(([0-9.]+) ([KMG]?[Bb]/s)\)`)

// wgetUnits maps wget's rate names onto outparse's: its byte units are
// powers of 1024, its bit units (--report-speed=bits) powers of 1000.
var wgetUnits = map[string]string{
	"B/s": "B/s", "KB/s": "KiB/s", "MB/s": "MiB/s", "GB/s": "GiB/s",
	"b/s": "bit/s", "Kb/s": "kbit/s", "Mb/s": "Mbit/s", "Gb/s": "Gbit/s",
}

// parseWget reads wget's final rate: the "Downloaded:" summary when it
// fetched several files, else the files' bytes over the time their
// "saved" lines' rates imply (they ran one after the other). wget
// prints its rate only at its default verbosity: -q and -nv print none.
func parseWget(out Output) (Figures, error) {
	text := out.text()
	saved := wgetSaved.FindAllStringSubmatch(text, -1)
	if len(saved) == 0 {
		return nil, errors.New("wget: no \"(N MB/s) - ... saved [bytes]\" line: run wget without -q or -nv (--progress=dot:giga keeps its output short)")
	}
	figs := Figures{"files": {Value: float64(len(saved)), Unit: "count"}}
	var bytes, secs float64
	for _, m := range saved {
		v, _ := strconv.ParseFloat(m[1], 64)
		n, _ := strconv.ParseFloat(m[3], 64)
		if r := rate(v, wgetUnits[m[2]]).Value; r > 0 {
			secs += n / 1e6 / r
		}
		bytes += n
	}
	var mbps float64
	if secs > 0 {
		mbps = bytes / 1e6 / secs
	}
	if t := wgetTotal.FindStringSubmatch(text); t != nil {
		v, _ := strconv.ParseFloat(t[1], 64)
		mbps = rate(v, wgetUnits[t[2]]).Value
	}
	figs["bytes"] = Figure{Value: bytes, Unit: "B"}
	figs[Throughput] = Figure{Value: mbps, Unit: MBps}
	return figs, nil
}
