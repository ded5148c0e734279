// Package summary keeps and prints what a sweep measured, from its cells'
// results: summary.json and, as table.md and on stdout, the ssbench-style
// table (or the repeats' table), the command workloads' table, the fill
// workloads' buckets, the searches' tables, each cell's errors, and
// errors.log with the whole commands of the steps that failed.
package summary
