// Package cmdload runs command workloads: a shell command (wget, curl,
// iperf3, fio, iozone, or any tool) run as N copies on client hosts through
// remote, its output parsed into figures with units, and the copies'
// figures aggregated into a cell's metrics.
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
// parser names its headline rate Throughput. Run aggregates copies: rates,
// sizes and counts add up (the copies ran at once), other figures (times,
// percentages) are averaged.
package cmdload
