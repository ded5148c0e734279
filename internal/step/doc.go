// Package step is the engine's one kind of step: a named action with the
// undo that reverses it, and the Runner that executes a list of them,
// journals each one and unwinds the undos in reverse. Setup, the sweep's
// run-wide and cell steps and `benchbed restore` all run on it.
package step
