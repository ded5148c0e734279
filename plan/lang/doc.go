// Package lang is the HCL evaluation the testbed language shares: the
// prescan and budgets that bound a file, variables (defaults, -var,
// -var-file, BENCHBED_VAR_), locals in dependency order, the functions,
// for_each, typed attribute values and the sensitive values they carry,
// and the diagnostics' format. Its Decoder is embedded by plan/decode's;
// it knows no block of a testbed and imports no other plan package.
package lang
