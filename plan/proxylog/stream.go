package proxylog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"strings"
)

// MaxLine is the longest line read; a longer one is garbled.
const MaxLine = 64 << 10

// errLong is a line longer than MaxLine.
var errLong = errors.New("longer than 64 KiB")

// Input is one log to read: its name (for messages) and its contents,
// plain or gzip (told by its first bytes).
type Input struct {
	Name string
	R    io.Reader
}

// stream reads one input's records in order.
type stream struct {
	name   string
	br     *bufio.Reader
	t      *Template
	line   int64
	syslog bool // the last line parsed had a syslog prefix: try that first
	rec    Record
	err    error // a read error: the input ends there
	stats  *Stats
	buf    []byte // the line being read, reused
}

func newStream(in Input, t *Template, st *Stats) (*stream, error) {
	br := bufio.NewReaderSize(in.R, 256<<10)
	if head, _ := br.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		br = bufio.NewReaderSize(gz, 256<<10)
	}
	return &stream{name: in.Name, br: br, t: t, stats: st}, nil
}

// next reads up to the next record into s.rec; false at the end (or on a
// read error, kept in s.err).
func (s *stream) next() bool {
	for {
		line, cut, err := s.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.err = fmt.Errorf("%s:%d: %w", s.name, s.line+1, err)
			}
			return false
		}
		s.line++
		s.stats.Lines++
		if strings.TrimSpace(line) == "" {
			continue
		}
		if cut {
			s.stats.garbled(s.name, s.line, line, errLong)
			continue
		}
		if perr := s.parse(line); perr != nil {
			s.stats.garbled(s.name, s.line, line, perr)
			continue
		}
		s.stats.Records++
		return true
	}
}

// readLine returns the next line without its end, and whether it was
// longer than MaxLine (then cut there).
func (s *stream) readLine() (string, bool, error) {
	b := s.buf[:0]
	defer func() { s.buf = b[:0] }()
	cut := false
	for {
		frag, err := s.br.ReadSlice('\n')
		keep := min(len(frag), MaxLine-len(b))
		cut = cut || keep < len(frag)
		b = append(b, frag[:keep]...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (len(b) == 0 || !errors.Is(err, io.EOF)) {
			return "", false, err
		}
		return strings.TrimRight(string(b), "\r\n"), cut, nil
	}
}

// parse reads line, with or without a syslog prefix ("Dec  5 01:02:03
// host proxy-server: "), the way the last line parsed first.
func (s *stream) parse(line string) error {
	bare := func() error { return s.t.Parse(line, &s.rec) }
	prefixed := func() error {
		i := strings.Index(line, ": ")
		if i < 0 {
			return errGarbled
		}
		return s.t.Parse(line[i+2:], &s.rec)
	}
	first, second := bare, prefixed
	if s.syslog {
		first, second = prefixed, bare
	}
	err := first()
	if err == nil {
		return nil
	}
	if err2 := second(); err2 == nil {
		s.syslog = !s.syslog
		return nil
	}
	return err
}
