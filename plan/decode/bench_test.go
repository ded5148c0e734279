package decode

import (
	"testing"
)

// BenchmarkLoadSeed measures decoding and validating the seed's lab (from
// disk, scenario file included).
func BenchmarkLoadSeed(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, diags := Load("../../testbeds/swiftstack-2015.hcl", LoadOptions{})
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
}
