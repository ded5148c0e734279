// Package decode reads a testbed file into a plan.Testbed: Load decodes
// it in phases (variables and locals through plan/lang, then one decoder
// per block: testbed, ssh, host, ring, policy, service, variant, workload
// with its scenario, fill, search and auto runs, prefill, sweep,
// telemetry, fault) and validates the result across blocks, returning
// every problem as an hcl.Diagnostic with its source range.
package decode
