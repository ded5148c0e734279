// Package schedule computes what a sweep of a decoded testbed (plan, the
// model) does, in order: its Schedule (New), the checks before any change,
// per cell the render, ring-port, restart, prefill, warmup and run steps,
// and the restore; the time it should take; and the views of it that
// `benchbed plan` prints (text, and the JSON of `--json`). Nothing is
// contacted.
package schedule
