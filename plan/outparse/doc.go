// Package outparse reads command workloads' output: what a shell command
// (wget, curl, iperf3, fio, iozone, or any tool) printed, parsed into
// figures with units. It is a leaf: the testbed language checks parsers
// with it, and package internal/agents runs the copies on the client hosts and
// aggregates their figures into a cell's metrics.
//
// A Parser turns one copy's output into Figures. The built-in ones are named
// by Builtin: "wget" (its final "(N MB/s) - ... saved [bytes]" line, in
// bytes or with --report-speed=bits), "curl" (the output of -w CurlFormat,
// or of any -w of name=value pairs of curl's variables), "iperf3" (--json),
// "fio" (--output-format=json) and "iozone" (its report table, or the
// "Children see throughput" lines of -t). Custom parsers are a regular
// expression with named groups (Regexp) or JSON paths (JSONPath), each
// metric with its unit.
//
// Every rate is converted to MB/s (10^6 bytes per second) whatever unit the
// tool printed it in, so that tools compare in one table; each built-in
// parser names its headline rate Throughput. Sums says which units add up
// over copies run at once (rates, sizes, counts); other figures (times,
// percentages) are averaged.
package outparse
