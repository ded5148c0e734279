// Package lang is the HCL evaluation the testbed language shares: a
// testbed's files (include blocks read in place, override blocks merged
// Terraform's way), the prescan and budgets that bound a file and the
// files together, variables (defaults, -var, -var-file, BENCHBED_VAR_),
// locals in dependency order, the functions, for_each, typed attribute
// values and the sensitive values they carry, and the diagnostics'
// format. Its Decoder is embedded by plan/decode's; it knows no block of
// a testbed (the schema of the files' top level is the caller's) and
// imports no other plan package.
package lang
