package outparse

import (
	"fmt"
	"strconv"
	"strings"
)

// CurlFormat is the -w format the "curl" parser reads by position:
// bytes received, total time, mean download rate and time to first byte.
// Any -w of name=value pairs of curl's variables works too, in any order.
const CurlFormat = `%{size_download} %{time_total} %{speed_download} %{time_starttransfer}\n`

// curlFields are CurlFormat's variables in order.
var curlFields = []string{"size_download", "time_total", "speed_download", "time_starttransfer"}

// curlUnit is the unit of one of curl's -w variables, by its name's
// prefix: sizes in bytes, times in seconds, speeds in bytes per second;
// other numbers (http_code, num_connects) have none.
func curlUnit(name string) string {
	switch {
	case strings.HasPrefix(name, "size_"):
		return "B"
	case strings.HasPrefix(name, "time_"):
		return "s"
	case strings.HasPrefix(name, "speed_"):
		return "B/s"
	}
	return ""
}

// parseCurl reads the last line of stdout with figures: CurlFormat's four
// numbers, or name=value pairs. Throughput is speed_download (or
// speed_upload when only that is given) in MB/s.
func parseCurl(out Output) (Figures, error) {
	lines := strings.Split(strings.TrimSpace(string(out.Stdout)), "\n")
	line := strings.TrimSpace(lines[len(lines)-1])
	if line == "" {
		return nil, fmt.Errorf("curl: no -w output on stdout: pass -s -o /dev/null -w '%s'", CurlFormat)
	}
	figs := Figures{}
	words := strings.Fields(line)
	for i, w := range words {
		name, val, keyed := strings.Cut(w, "=")
		if !keyed {
			if len(words) != len(curlFields) {
				return nil, fmt.Errorf("curl: %q is not -w '%s' (four numbers) nor name=value pairs", line, CurlFormat)
			}
			name, val = curlFields[i], w
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, fmt.Errorf("curl: %s=%q is not a number", name, val)
		}
		figs[name] = normalise(Figure{Value: v, Unit: curlUnit(name)})
	}
	for _, s := range []string{"speed_download", "speed_upload"} {
		if f, ok := figs[s]; ok {
			figs[Throughput] = f
			break
		}
	}
	return need("curl", figs)
}
