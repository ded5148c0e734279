// Package scenario reads ssbench scenario files: the strict parse with
// ssbench's defaults and refusals, errors at their file's line and column,
// and the limits of a fill run. It imports only the standard library.
package scenario
