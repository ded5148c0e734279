package replay

// bloom is a Bloom filter of object keys: a fixed 16 MiB whatever the
// objects, so that the prefill's pass remembers which objects the log
// wrote or queued without a memory that grows with them. A false positive
// (about 1 % at 12 million objects) leaves an object unprefilled: its
// replayed read then fails as it did not in production, and counts as an
// error the report shows.
type bloom struct{ bits []uint64 }

const (
	bloomBits   = 1 << 27
	bloomHashes = 7
)

func newBloom() *bloom { return &bloom{bits: make([]uint64, bloomBits/64)} }

// positions are key's bit positions (double hashing over its halves).
func (b *bloom) positions(key uint64, f func(i uint64)) {
	h1, h2 := key, key>>32|key<<32|1
	for k := range uint64(bloomHashes) {
		f((h1 + k*h2) % bloomBits)
	}
}

// add sets key's bits.
func (b *bloom) add(key uint64) {
	b.positions(key, func(i uint64) { b.bits[i/64] |= 1 << (i % 64) })
}

// has reports whether key may have been added (never false for one that was).
func (b *bloom) has(key uint64) bool {
	all := true
	b.positions(key, func(i uint64) { all = all && b.bits[i/64]&(1<<(i%64)) != 0 })
	return all
}
