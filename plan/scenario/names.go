package scenario

import "strconv"

// ObjectName returns ssbench's name of object index of size class size:
// "<size>_%06d".
func ObjectName(size string, index int64) string {
	b := make([]byte, 0, len(size)+12)
	b = append(append(b, size...), '_')
	return string(appendPadded(b, index))
}

// appendPadded appends i in decimal, zero-padded to 6 digits (%06d).
func appendPadded(b []byte, i int64) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], i, 10)
	for k := len(s); k < 6; k++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
