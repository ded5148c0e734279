// Package agents runs benchbed's programs on the client hosts: it installs
// them, checks the clocks, starts the load, prefill and telemetry agents and
// collects what they report, and runs a command workload's copies, reading
// each copy's output with its parser and combining the copies' figures.
package agents
