// Command benchbed is a declarative test-bed orchestrator for storage
// benchmarks, first of all OpenStack Swift. See the README.
package main
