// Package schedule computes what a sweep of a decoded testbed
// (plan) does, in order: the checks before any change, per cell
// the render, ring-port, restart, prefill, warmup and run steps, and the
// restore; the time it should take; and the views of that plan that
// `benchbed plan` prints (text, and the JSON of `--json`). Nothing is
// contacted.
package schedule
