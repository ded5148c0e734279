package outparse

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Regexp returns a parser that matches expr against a copy's output
// (stdout, then stderr) and reads each named group as a number: units maps
// every group's name to its unit ("MB/s", "s", "" for none). Each metric
// takes the last match that sets it (a tool's final summary line); rates
// are converted to MB/s.
func Regexp(expr string, units map[string]string) (Parser, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("regexp: %w", err)
	}
	var groups []string
	for _, n := range re.SubexpNames() {
		if n != "" {
			groups = append(groups, n)
		}
	}
	if len(groups) == 0 {
		return nil, errors.New("regexp: no named group: name each metric, (?P<throughput>[0-9.]+)")
	}
	if err := sameNames(groups, units); err != nil {
		return nil, fmt.Errorf("regexp: %w", err)
	}
	return ParserFunc(func(out Output) (Figures, error) {
		figs := Figures{}
		for _, m := range re.FindAllStringSubmatch(out.text(), -1) {
			for i, n := range re.SubexpNames() {
				if v, err := strconv.ParseFloat(m[i], 64); n != "" && err == nil {
					figs[n] = normalise(Figure{Value: v, Unit: units[n]})
				}
			}
		}
		return complete("regexp", figs, groups)
	}), nil
}

// JSONPath returns a parser that reads stdout as JSON and each metric at
// paths[name], a dotted path with array indexes ("end.sum_received.
// bits_per_second", "jobs[0].read.bw_bytes") where [*] adds up the
// elements ("jobs[*].read.bw_bytes"); units maps every name to its unit.
func JSONPath(paths, units map[string]string) (Parser, error) {
	names := slices.Sorted(maps.Keys(paths))
	if len(names) == 0 {
		return nil, errors.New("json: no metric paths")
	}
	if err := sameNames(names, units); err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	steps := map[string][]string{}
	for _, n := range names {
		s, err := splitPath(paths[n])
		if err != nil {
			return nil, fmt.Errorf("json: metric %s: %w", n, err)
		}
		steps[n] = s
	}
	return ParserFunc(func(out Output) (Figures, error) {
		var doc any
		if err := json.Unmarshal(out.Stdout, &doc); err != nil {
			return nil, fmt.Errorf("json: stdout is not JSON: %w", err)
		}
		figs := Figures{}
		for _, n := range names {
			v, err := walk(doc, steps[n])
			if err != nil {
				return nil, fmt.Errorf("json: %s (%s): %w", n, paths[n], err)
			}
			figs[n] = normalise(Figure{Value: v, Unit: units[n]})
		}
		return figs, nil
	}), nil
}

// sameNames checks that units names exactly the metrics.
func sameNames(metrics []string, units map[string]string) error {
	for _, m := range metrics {
		if _, ok := units[m]; !ok {
			return fmt.Errorf("metric %s has no unit (\"\" for none)", m)
		}
	}
	for u := range units {
		if !slices.Contains(metrics, u) {
			return fmt.Errorf("a unit for %s, which is no metric", u)
		}
	}
	return nil
}

// complete fails when a metric was never matched.
func complete(tool string, figs Figures, names []string) (Figures, error) {
	var missing []string
	for _, n := range names {
		if _, ok := figs[n]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: no match for %s in the output", tool, strings.Join(missing, ", "))
	}
	return figs, nil
}
