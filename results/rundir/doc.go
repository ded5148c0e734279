// Package rundir owns a sweep's run directory: every path and file name in
// it, the typed readers and writers of what it holds (summary.json, the
// journal, cells, the agents' streams, the hosts' environments, sweep.json,
// backup.json, the ring layout) and Resolve, the one way a run reference
// (a path, an id, "latest") becomes a run.
//
// docs/results.md is the contract this package implements: what each file
// holds and which parts scripts may rely on.
package rundir
