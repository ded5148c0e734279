// Package plan is benchbed's testbed model: the decoded, validated testbed
// (hosts, rings, policies, services, variants, workloads, faults, the sweep)
// that every other part of benchbed reads, with what follows from it: the
// matrix of cells, the ring layout, lookups by role and name, the masking of
// its secrets, and the spans and error rates its messages and gates use.
// A testbed file is read into it by plan/decode (through the HCL evaluation
// of plan/lang); its other subpackages render a variant's confs
// (plan/render), compute a sweep's steps (plan/schedule), read ssbench
// scenario files (plan/scenario) and parse command workloads' output
// (plan/outparse). It imports no remote and no load engine: nothing in it
// contacts a host.
package plan
