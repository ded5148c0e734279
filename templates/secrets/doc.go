// Package secrets is benchbed's one home for hiding secrets (auth keys,
// passwords, hash path salts, tokens) in every byte that leaves the
// process: printed text, logs, diagnostics, the run directory.
//
// Three rules, used everywhere:
//   - values: the secret values a testbed declares (sensitive variables,
//     auth keys) are replaced wherever they appear, also in their JSON
//     string form (a secret holding a quote or a backslash is escaped in
//     summary.json and the journal); a value shorter than MinLen is only
//     masked where its key says it is secret, since it would match inside
//     ordinary words;
//   - keys: a conf entry or testbed attribute whose name says it is a
//     secret (Key) is masked whatever its value;
//   - tokens: Swift auth tokens as servers log them (tempauth's AUTH_tk...,
//     Keystone's Fernet gAAAAA...) are masked in any text.
//
// Everything masked reads Masked.
package secrets
