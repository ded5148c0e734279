// Package load is benchbed's Swift client and load generator: closed- and
// open-loop users running an ssbench scenario (plan/scenario), fill runs,
// and the agent that runs a job and streams its events (results).
package load
