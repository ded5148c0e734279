package remote

import (
	"bytes"
	"io"
	"sync"
)

// maxLine is the longest partial line a prefixWriter holds before it
// writes it out anyway.
const maxLine = 64 << 10

// syncWriter is the shared destination of live output: one Write per batch
// of whole lines, under a lock, so hosts never interleave mid-line.
type syncWriter struct {
	mu        sync.Mutex
	w         io.Writer
	newFilter func() func(string) string // nil = lines as they are
}

func (s *syncWriter) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.Write(b) // live output is best effort: a broken terminal must not fail a command
}

// prefixWriter buffers one stream of one command and passes whole lines,
// each prefixed, to a syncWriter.
type prefixWriter struct {
	dst    *syncWriter
	prefix []byte
	filter func(string) string // this stream's, from dst.newFilter; nil = none
	part   []byte              // the current unterminated line
	batch  []byte
}

func newPrefixWriter(dst *syncWriter, prefix string) *prefixWriter {
	w := &prefixWriter{dst: dst, prefix: []byte(prefix)}
	if dst.newFilter != nil {
		w.filter = dst.newFilter()
	}
	return w
}

// Write implements io.Writer.
func (w *prefixWriter) Write(b []byte) (int, error) {
	n := len(b)
	w.batch = w.batch[:0]
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			w.part = append(w.part, b...)
			if len(w.part) >= maxLine {
				w.line(w.part)
				w.part = w.part[:0]
			}
			break
		}
		if len(w.part) > 0 {
			w.line(append(w.part, b[:i]...))
			w.part = w.part[:0]
		} else {
			w.line(b[:i])
		}
		b = b[i+1:]
	}
	if len(w.batch) > 0 {
		w.dst.write(w.batch)
	}
	return n, nil
}

func (w *prefixWriter) line(l []byte) {
	w.batch = append(w.batch, w.prefix...)
	if w.filter != nil {
		w.batch = append(w.batch, w.filter(string(l))...)
	} else {
		w.batch = append(w.batch, l...)
	}
	w.batch = append(w.batch, '\n')
}

// Flush writes a last unterminated line.
func (w *prefixWriter) Flush() {
	if len(w.part) == 0 {
		return
	}
	w.batch = w.batch[:0]
	w.line(w.part)
	w.part = w.part[:0]
	w.dst.write(w.batch)
}

// headBuffer keeps the first limit bytes written to it and counts the rest.
type headBuffer struct {
	limit   int
	buf     []byte
	dropped int64
}

// Write implements io.Writer.
func (h *headBuffer) Write(b []byte) (int, error) {
	room := h.limit - len(h.buf)
	if room >= len(b) {
		h.buf = append(h.buf, b...)
	} else {
		h.buf = append(h.buf, b[:max(room, 0)]...)
		h.dropped += int64(len(b) - max(room, 0))
	}
	return len(b), nil
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	limit   int
	buf     []byte
	dropped int64
}

// Write implements io.Writer.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.limit; over > 0 {
		t.dropped += int64(over)
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// lastLines returns at most n lines and max bytes from the end of b.
func lastLines(b []byte, n, maxBytes int) string {
	b = bytes.TrimRight(b, "\n")
	if len(b) > maxBytes {
		b = b[len(b)-maxBytes:]
	}
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			if n--; n == 0 {
				return string(b[i+1:])
			}
		}
	}
	return string(b)
}
