// Package prefill creates a scenario's initial objects in parallel,
// resumably, and verifies them by container listing, with memory that does
// not grow with the number of objects: names come from indexes, never from a
// list.
//
// Object k (from 0) of a scenario is the k-th initial job ssbench would
// generate: size classes interleaved in the order of the scenario's sizes,
// an index per size class counting from 1, containers handed out round-robin
// (k mod container_count). Either tool's prefill is therefore reused.
package prefill
