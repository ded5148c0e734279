//go:build !race

package load

// raceOn: the race detector instruments this build (tests of timing skip).
const raceOn = false
