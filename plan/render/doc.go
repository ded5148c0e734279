// Package render turns a decoded testbed (plan) into the files its
// hosts run: every conf of every host for one variant, through
// templates, with the checks a rendering allows (ports two servers
// share, ring ports no server listens on, swift.conf that differs between
// hosts); the ring layout's text; and the differences between two
// variants' renderings, for `benchbed diff` and a sweep's steps.
package render
