package rundir

// DefaultRoot is the root of the run directories when neither --runs-dir
// nor the testbed's sweep.runs_dir names one (plan's default runs_dir).
const DefaultRoot = "runs"

// Names of what a run directory holds; docs/results.md describes each.
const (
	SummaryFile = "summary.json"  // the run's cells (contract)
	JournalFile = "journal.jsonl" // the sweep's steps, one JSON object a line (contract)
	SweepFile   = "sweep.json"    // SweepInfo: how restore finds the testbed
	BackupFile  = "backup.json"   // Backup: the originals the sweep may change
	TestbedFile = "testbed.hcl"   // the testbed as used, its included files inlined, secrets masked
	CatalogFile = "catalog.json"  // which catalog of Swift's options checked each host's settings
	TableFile   = "table.md"      // the sweep's table
	EnvDir      = "env"           // env/<host>.txt, each host's environment
	CellsDir    = "cells"         // one directory per cell, named by its id
	PrefillDir  = "prefill"       // prefill checkpoints, in a run or beside a testbed's runs
	// ServicesFile records, per "host/service", whether a generic service
	// ran before the sweep first touched it.
	ServicesFile = "services.json"
)

// Names of what a cell's directory (cells/<id>/) holds.
const (
	CellFile       = "cell.json"        // the cell's result, one element of summary.json
	ErrorFile      = "error.txt"        // why the cell failed
	ConfsDir       = "confs"            // confs/<host>/<abs path>, secrets masked
	RingPortsFile  = "ring-ports.txt"   // the cell's ring layout as text, for people
	RingLayoutFile = "ring-layout.json" // the cell's ring layout as data (RingLayout)
	AgentsDir      = "agents"           // agents/agent-<n>-<host>.jsonl, the agents' streams
	LogsDir        = "logs"             // logs/<host>-<service>.log, kept on failure
	OutputDir      = "output"           // output/<copy>-<host>.out and .err, a command workload's copies' output
	TelemetryDir   = "telemetry"        // telemetry/<host>.jsonl, each host's telemetry samples
)
