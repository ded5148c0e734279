package load

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// head is what a response's status line and headers say.
type head struct {
	status    int
	length    int64 // Content-Length, -1 when absent
	chunked   bool
	keepAlive bool
}

// readHead reads an HTTP/1.x status line and headers from br, skipping 1xx
// interim responses, and keeps in reply (when not nil) what it asks for.
func readHead(br *bufio.Reader, reply *Reply) (head, error) {
	for {
		h, err := readOneHead(br, reply)
		if err != nil || h.status >= 200 {
			return h, err
		}
	}
}

func readOneHead(br *bufio.Reader, reply *Reply) (head, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return head{}, err
	}
	h := head{length: -1, keepAlive: bytes.HasPrefix(line, []byte("HTTP/1.1 "))}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return head{}, fmt.Errorf("%w: status line %q", errMalformed, trimCRLF(line))
	}
	code, err := strconv.Atoi(string(line[9:12]))
	if err != nil || code < 100 {
		return head{}, fmt.Errorf("%w: status line %q", errMalformed, trimCRLF(line))
	}
	h.status = code
	for {
		line, err = br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if err := skipLongLine(br, line); err != nil {
				return head{}, err
			}
			continue
		}
		if err != nil {
			return head{}, err
		}
		line = trimCRLF(line)
		if len(line) == 0 {
			return h, nil
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return head{}, fmt.Errorf("%w: header line %q", errMalformed, line)
		}
		value = bytes.TrimSpace(value)
		if err := h.header(name, value); err != nil {
			return head{}, err
		}
		if reply != nil && bytes.EqualFold(name, []byte("ETag")) {
			reply.ETag = string(value)
		}
	}
}

// skipLongLine skips the rest of a header line longer than br's buffer,
// start being what the buffer holds of it. No header that frames the body
// is that long: such a one is malformed, the others are of no use here.
func skipLongLine(br *bufio.Reader, start []byte) error {
	name, _, ok := bytes.Cut(start, []byte(":"))
	if !ok || framing(name) {
		return fmt.Errorf("%w: header line of more than %d bytes, starting %.40q", errMalformed, br.Size(), start)
	}
	for {
		_, err := br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// framing reports whether name is a header that decides how the body is framed.
func framing(name []byte) bool {
	return bytes.EqualFold(name, []byte("Content-Length")) || bytes.EqualFold(name, []byte("Transfer-Encoding")) ||
		bytes.EqualFold(name, []byte("Connection"))
}

// header takes in the headers that decide how the body is framed.
func (h *head) header(name, value []byte) error {
	switch {
	case bytes.EqualFold(name, []byte("Content-Length")):
		n, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: Content-Length %q", errMalformed, value)
		}
		h.length = n
	case bytes.EqualFold(name, []byte("Transfer-Encoding")):
		h.chunked = bytes.EqualFold(value, []byte("chunked"))
	case bytes.EqualFold(name, []byte("Connection")):
		if bytes.EqualFold(value, []byte("close")) {
			h.keepAlive = false
		} else if bytes.EqualFold(value, []byte("keep-alive")) {
			h.keepAlive = true
		}
	}
	return nil
}

// readBody reads the body the head announces into w. With d (non-nil) and
// w io.Discard, the bytes beyond br's buffer are dropped in the kernel.
func (h *head) readBody(br *bufio.Reader, w io.Writer, isHead bool, d *kernelDrain) error {
	if w != io.Discard {
		d = nil
	}
	switch {
	case isHead || h.status == 204 || h.status == 304:
		return nil
	case h.chunked:
		return readChunked(br, w, d)
	case h.length >= 0:
		return copyN(br, w, h.length, d)
	}
	h.keepAlive = false // the body ends with the connection
	_, err := io.Copy(w, br)
	return err
}

// copyN moves n bytes from br to w through br's own buffer; with d
// (non-nil: w discards), what br has not buffered yet is dropped in the
// kernel instead, straight from the connection under br.
func copyN(br *bufio.Reader, w io.Writer, n int64, d *kernelDrain) error {
	for n > 0 {
		if d != nil && br.Buffered() == 0 {
			k, err := d.skip(n)
			n -= k
			if errors.Is(err, errNoDrain) {
				d = nil // the kernel cannot: read and drop
				continue
			}
			if err != nil {
				return err
			}
			continue
		}
		if _, err := br.Peek(1); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		chunk, _ := br.Peek(int(min(n, int64(br.Buffered()))))
		k, err := w.Write(chunk)
		_, _ = br.Discard(k)
		n -= int64(k)
		if err != nil {
			return err
		}
	}
	return nil
}

// readChunked reads a chunked body into w, trailers included.
func readChunked(br *bufio.Reader, w io.Writer, d *kernelDrain) error {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(trimCRLF(line), []byte(";"))
		n, err := strconv.ParseInt(string(bytes.TrimSpace(size)), 16, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: chunk size %q", errMalformed, size)
		}
		if n == 0 {
			for { // trailers, up to the empty line
				line, err = br.ReadSlice('\n')
				if err != nil || len(trimCRLF(line)) == 0 {
					return err
				}
			}
		}
		if err := copyN(br, w, n, d); err != nil {
			return err
		}
		if _, err := br.Discard(2); err != nil {
			return err
		}
	}
}

func trimCRLF(b []byte) []byte { return bytes.TrimRight(b, "\r\n") }
