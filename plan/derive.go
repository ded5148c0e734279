package plan

import (
	"slices"
)

// WithSecrets returns a copy of tb that also masks values: secrets learnt
// after decoding, such as the swift.conf hash path prefix and suffix read
// from a cluster. tb itself is unchanged; the copy shares tb's blocks,
// which nothing writes after decoding.
func (tb *Testbed) WithSecrets(values ...string) *Testbed {
	c := *tb
	c.Sensitive = append(slices.Clip(tb.Sensitive), values...)
	return &c
}
