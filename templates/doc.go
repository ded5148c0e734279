// Package templates renders Swift configuration files: built-in templates
// (embed.FS) or user template files, an INI model that keeps the order of
// sections, keys and comments, overlays of values that each remember where
// they came from, paste.deploy awareness, masking of sensitive values, a table
// of removed Swift options, and diffs between two renderings.
//
// It knows nothing of the testbed language: callers (package plan) turn a
// testbed into Data and Layers.
//
// A service may name its own template file instead of a built-in one
// (account-server, container-server, object-server, proxy-server, swift).
// It is a Go text/template over Data (.Host.Address, .Service.Port,
// .Proxies, .Vars.name, .Auth ...) whose output is INI; a missing map key
// (e.g. an unset .Vars.x) or field fails at render time as
// "<template>:<line>:<col>: ...", before anything reaches a host. Every
// rendered value remembers its template line; the testbed's settings, the
// variant's set and the host's bind_ip then overlay it, each with its HCL
// file and line.
//
// ReadBounded reads every file a testbed names (the testbed itself, var
// files, templates, file()) only when it is a regular file of at most
// MaxFileSize bytes.
package templates
