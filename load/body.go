package load

import (
	"bytes"
	"io"
)

// blockSize is the length of the shared pattern every object body repeats.
const blockSize = 64 << 10

// pattern is one read-only block shared by every upload: bodies are views
// of it, never buffers allocated per request.
var pattern = func() []byte {
	b := make([]byte, blockSize)
	x := uint32(2463534242)
	for i := range b { // xorshift: not all zeros, so nothing compresses it away
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}()

// body reads n bytes of the shared pattern. It allocates nothing but itself.
type body struct {
	n, off int64
}

// newBody returns a reader of n bytes.
func newBody(n int64) *body { return &body{n: n} }

// Read implements io.Reader.
func (b *body) Read(p []byte) (int, error) {
	if b.off >= b.n {
		return 0, io.EOF
	}
	left := b.n - b.off
	if int64(len(p)) > left {
		p = p[:left]
	}
	done := 0
	for done < len(p) {
		k := copy(p[done:], pattern[(b.off+int64(done))%blockSize:])
		done += k
	}
	b.off += int64(done)
	return done, nil
}

// WriteTo implements io.WriterTo, handing the pattern to w without copying.
func (b *body) WriteTo(w io.Writer) (int64, error) {
	k, err := writePattern(w, b.off, b.n)
	b.off += k
	return k, err
}

// writePattern writes bytes off to n of the endless pattern to w, straight
// from the shared block: nothing is allocated or copied.
func writePattern(w io.Writer, off, n int64) (int64, error) {
	var total int64
	for off < n {
		start := off % blockSize
		end := min(int64(blockSize), start+n-off)
		k, err := w.Write(pattern[start:end])
		off += int64(k)
		total += int64(k)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Close implements io.Closer.
func (b *body) Close() error { return nil }

// bodySize is the length of r's PUT body.
func (r *Request) bodySize() int64 {
	if r.Body != nil {
		return int64(len(r.Body))
	}
	return r.Size
}

// putBody is a PUT's body, which hands itself to a writer without copying.
type putBody interface {
	io.ReadCloser
	io.WriterTo
}

// manifestBody is a PUT body held in memory (a manifest).
type manifestBody struct{ *bytes.Reader }

func (manifestBody) Close() error { return nil }

// newBody returns r's PUT body: its Body, or Size bytes of the generated
// content from Offset.
func (r *Request) newBody() putBody {
	if r.Body != nil {
		return manifestBody{bytes.NewReader(r.Body)}
	}
	return &body{off: r.Offset, n: r.Offset + r.Size}
}
