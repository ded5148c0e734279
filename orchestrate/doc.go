// Package orchestrate executes things on a lab: setup now (bare hosts to a
// healthy Swift cluster), prefill and sweep later. It sits between the CLI
// and plan: it reads a decoded *plan.Testbed, renders through plan and
// templates, and touches hosts only through remote.
//
// Setup is idempotent: every step first looks at what the hosts have
// (directories, swift.conf, ring builders and ring files, confs, running
// services) and changes only what differs, so a second run reports no
// change, and a testbed with one more disk is applied as a ring change (add
// the device, rebalance, distribute), never a rebuild.
package orchestrate
