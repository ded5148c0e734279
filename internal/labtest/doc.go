// Package labtest holds the engine's test fakes, for tests only: an
// in-memory Swift, a shell runner standing in for hosts, local agents'
// servers and the lab testbed.
package labtest
