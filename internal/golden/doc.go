// Package golden compares a test's output with a file under the test's
// testdata/, or rewrites that file when the test runs with -update.
package golden
