// Package plan is benchbed's testbed language: the HCL schema, decoding with
// diagnostics, variables, matrix expansion, the ring layout it implies, and
// the spans and error rates its messages and gates use. Its subpackages
// render a variant's confs (plan/render), compute a sweep's steps
// (plan/schedule), read ssbench scenario files (plan/scenario) and parse
// command workloads' output (plan/outparse). It imports no remote and no
// load engine: nothing in it contacts a host.
package plan
