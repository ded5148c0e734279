// Package labkit holds what the end-to-end harnesses of both labs share
// (e2e for testbeds/lab, e2e/distro for testbeds/distro): finding the
// repository, taking a lab's machine-wide lock and building the benchbed
// binary the tests run.
package labkit
