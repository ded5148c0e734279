package load

import (
	"bytes"
	"errors"
)

// ErrCorrupt is a GET whose body differs from what benchbed wrote: its
// error counters name it "corrupt".
var ErrCorrupt = errors.New("corrupt: the body differs from what was written")

// Verifier is a GET body's sink that compares it, as it streams, with the
// generated content every object holds (the shared pattern from offset 0):
// nothing is buffered, and a mismatch is only remembered, so that the
// connection is read to its end and stays usable.
type Verifier struct {
	off int64 // bytes seen
	bad bool  // a byte differed
}

// Reset prepares v for the next body and returns it.
func (v *Verifier) Reset() *Verifier {
	v.off, v.bad = 0, false
	return v
}

// Write implements io.Writer; it never fails.
func (v *Verifier) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && !v.bad {
		start := v.off % blockSize
		k := min(len(p), int(blockSize-start))
		if !bytes.Equal(p[:k], pattern[start:start+int64(k)]) {
			v.bad = true
		}
		p = p[k:]
		v.off += int64(k)
	}
	if v.bad {
		v.off += int64(len(p))
	}
	return n, nil
}

// Check turns a successful outcome whose body did not verify into an
// ErrCorrupt one.
func (v *Verifier) Check(o Outcome) Outcome {
	if o.OK() && v.bad {
		o.Err = ErrCorrupt
	}
	return o
}

// NewVerifier returns a Verifier for GET bodies sent to it as a Request's
// Sink (Reset before each), whose Check marks a differing body corrupt.
func NewVerifier() *Verifier { return &Verifier{} }

// restartSink readies r's sink for another attempt of r: a Verifier
// forgets what an earlier attempt wrote to it (a 503's error page, a body
// cut off by a reset), so that only the body of the attempt whose outcome
// counts is checked, and a fault's retried error is never corrupt.
func restartSink(r *Request) {
	if v, ok := r.Sink.(*Verifier); ok {
		v.Reset()
	}
}
