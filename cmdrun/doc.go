// Package cmdrun runs a command workload's copies at once on the client
// hosts through remote, reads each copy's output with its outparse parser,
// and combines the copies' figures into a cell's metrics (rates, sizes and
// counts add up, other figures are averaged).
package cmdrun
