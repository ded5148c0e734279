// Package plantest loads testbeds for the tests of the packages built on
// plan (plan/render, plan/schedule, the sweep): the seed's lab, and texts made of
// the fixtures plan's own tests use (plan/decode/testdata/fixtures). Paths are
// relative to the directory `go test` runs a package's tests in (the
// package's own), however deep in the module it is.
package plantest
