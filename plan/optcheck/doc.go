// Package optcheck checks a testbed's Swift settings against Swift's option
// catalog (package templates/catalog): every service's settings and every
// variant's set blocks, at the line of each key. An unknown section or key
// is an error with the nearest known names and where else Swift reads the
// key; a value of the wrong type an error naming the type and Swift's
// default; a retired option a warning. A service's or variant's unchecked
// list lets a patched Swift's or a third-party middleware's option through,
// and what went unchecked, like what equals Swift's default, is listed in
// the testbed's SettingsCheck for plan. A mistake that a for_each repeats
// in every instance is said once, with the instances named.
package optcheck
