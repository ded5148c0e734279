// Package importer reads a running Swift cluster over SSH and writes a
// testbed that describes it: `benchbed import`.
//
// It only reads (Probe: one shell command per host that cats confs, lists
// processes, pid files and mounts, and dumps the rings with Swift's own
// RingBuilder and RingData in one Python process), then works offline:
// Build turns the hosts' facts into hosts and roles, disk groups, rings,
// policies and services, whose settings are what each conf sets
// differently from the built-in template as rendered for that host (and
// from Swift's default, for keys the template leaves out). Build writes
// the testbed with hclwrite, decodes it again, renders its baseline and
// compares every conf and ring device with what the hosts hold: what it
// could not describe, and hosts that disagree, are diagnostics, never
// averaged.
//
//	facts, err := importer.Probe(ctx, pool, hosts)
//	res := importer.Build(facts, importer.Options{SSH: ssh})
//	os.Stdout.Write(res.Text); res.Diags.Write(os.Stderr)
package importer
