package load

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Session is one user's connection to the cluster: a single keep-alive
// HTTP/1.1 connection that the user's goroutine writes and reads itself,
// with no other goroutine, channel or per-request buffer in the way. A
// storage URL that is not plain http goes through the client's net/http
// pool instead. A Session is used by one goroutine; Close ends it.
type Session struct {
	c        *Client
	ctx      context.Context
	stop     func() bool
	mu       sync.Mutex // guards conn's assignment against closeConn
	conn     net.Conn
	br       *bufio.Reader
	drain    *kernelDrain // drops discarded bodies in the kernel (nil: read them)
	wbuf     []byte
	addr     string        // host:port of the connection
	suRaw    string        // the storage URL last parsed
	su       *url.URL      // and its parsed form
	reused   bool          // the connection served a request before
	bufSize  int           // the read buffer's size
	deadline time.Time     // the connection's current deadline
	check    *Verifier     // checks GET bodies when the run verifies reads (nil: not)
	api      API           // the client's API
	errBody  limitedBuffer // a failed answer's body, when the API names errors in it
}

// sessionTimeout bounds one request on a session, give or take half of it
// (the deadline is renewed only when half used) (as the transport's
// ResponseHeaderTimeout does).
const sessionTimeout = 5 * time.Minute

// NewSession returns a session whose requests end when ctx is done.
func (c *Client) NewSession(ctx context.Context) *Session {
	s := &Session{c: c, ctx: ctx, wbuf: make([]byte, 0, 256), bufSize: c.readBuffer(), api: c.api()}
	s.stop = context.AfterFunc(ctx, func() { s.closeConn() })
	return s
}

// Close closes the session's connection.
func (s *Session) Close() {
	s.stop()
	s.setConn(nil)
}

func (s *Session) closeConn() {
	s.mu.Lock()
	if s.conn != nil {
		_ = s.conn.SetDeadline(time.Unix(1, 0)) // wakes a blocked read or write at once
	}
	s.mu.Unlock()
}

// setConn replaces the connection (nil: none), closing the old one.
func (s *Session) setConn(c net.Conn) {
	s.mu.Lock()
	if s.conn != nil && s.conn != c {
		_ = s.conn.Close()
	}
	s.conn = c
	s.mu.Unlock()
}

// Do runs r like Client.Do, on the session's connection.
func (s *Session) Do(r *Request, start time.Time) Outcome {
	var o Outcome
	for attempt := 0; ; attempt++ {
		restartSink(r)
		o = s.once(r, start)
		o.Retries = attempt
		if attempt >= s.c.MaxRetries || s.ctx.Err() != nil || !retryable(o) {
			return o
		}
	}
}

func (s *Session) once(r *Request, start time.Time) Outcome {
	if err := s.ctx.Err(); err != nil {
		return Outcome{Err: err}
	}
	su, tok, err := s.api.target(s.ctx)
	if err != nil {
		return Outcome{Err: err}
	}
	if su != s.suRaw {
		if s.su, err = url.Parse(su); err != nil {
			s.su = nil
		}
		s.suRaw = su
	}
	u := s.su
	if u == nil || u.Scheme != "http" || u.RawQuery != "" {
		return s.c.once(s.ctx, r, start)
	}
	reused := s.conn != nil && s.reused
	o := s.exchange(u, tok, r, start)
	if o.Err != nil && reused && o.Status == 0 && s.ctx.Err() == nil {
		restartSink(r)
		o = s.exchange(u, tok, r, start) // the server had closed an idle connection
	}
	if o.Status == http.StatusUnauthorized {
		s.api.refused(tok)
	}
	return o
}

// exchange writes one request and reads its response on the connection,
// dialing it first if needed. Any error closes the connection.
func (s *Session) exchange(u *url.URL, token string, r *Request, start time.Time) Outcome {
	if err := s.dial(u.Host); err != nil {
		return Outcome{Err: err}
	}
	if now := time.Now(); now.After(s.deadline.Add(-sessionTimeout / 2)) {
		s.deadline = now.Add(sessionTimeout) // renewed rarely: a deadline costs two timer updates
		_ = s.conn.SetDeadline(s.deadline)
	}
	if s.ctx.Err() != nil { // cancelled before the deadline above: undo it
		s.closeConn()
	}
	o, keep, err := s.roundTrip(u, token, r, start)
	if err != nil || !keep {
		s.setConn(nil)
	}
	if err != nil {
		o.Err = err
		if o.Status == 0 && s.ctx.Err() != nil {
			o.Err = s.ctx.Err()
		}
	}
	s.reused = s.conn != nil
	return o
}

func (s *Session) dial(host string) error {
	if s.conn != nil && s.addr == host {
		return nil
	}
	s.setConn(nil)
	addr := host
	if _, _, err := net.SplitHostPort(host); err != nil {
		addr = net.JoinHostPort(host, "80")
	}
	d := net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	conn, err := d.DialContext(s.ctx, "tcp", addr)
	if err != nil {
		return err
	}
	s.setConn(conn)
	s.addr, s.reused, s.deadline = host, false, time.Time{}
	s.drain = newDrain(conn)
	if s.br == nil {
		size := s.bufSize
		if s.drain != nil && !s.c.NoDrain {
			size = min(size, drainBuffer) // only heads and the start of bodies are read
		}
		s.br = bufio.NewReaderSize(conn, size)
	} else {
		s.br.Reset(conn)
	}
	if s.c.NoDrain {
		s.drain = nil
	}
	return nil
}

func (s *Session) roundTrip(u *url.URL, token string, r *Request, start time.Time) (Outcome, bool, error) {
	var err error
	if s.wbuf, err = s.api.appendHead(s.wbuf[:0], u, token, r); err != nil {
		return Outcome{}, true, err
	}
	if _, err := s.conn.Write(s.wbuf); err != nil {
		return Outcome{}, false, err
	}
	if r.hasBody() && r.bodySize() > 0 {
		if _, err := r.newBody().WriteTo(s.conn); err != nil {
			return Outcome{}, false, err
		}
	}
	h, err := readHead(s.br, r.Reply)
	if err != nil {
		return Outcome{}, false, err
	}
	o := Outcome{Status: h.status, FirstByte: time.Since(start)}
	sink := r.Sink
	errBody := h.status >= 300 && s.api.errorBodies()
	if errBody {
		s.errBody.b = s.errBody.b[:0]
		sink = &s.errBody
	} else if sink == nil {
		sink = io.Discard
	}
	err = h.readBody(s.br, sink, r.Method == http.MethodHead, s.drain)
	o.LastByte = time.Since(start)
	if errBody && err == nil {
		o.Code = s3ErrorCode(s.errBody.b)
	}
	return o, h.keepAlive && err == nil, err
}

// appendRequest appends r's request line and headers to b.
func appendRequest(b []byte, u *url.URL, token string, r *Request) []byte {
	b = append(b, r.Method...)
	b = append(b, ' ')
	b = append(b, strings.TrimSuffix(u.EscapedPath(), "/")...)
	b = append(b, '/')
	b = append(b, url.PathEscape(r.Container)...)
	if r.Object != "" {
		b = append(b, '/')
		b = append(b, url.PathEscape(r.Object)...)
	}
	if r.Query != "" {
		b = append(b, '?')
		b = append(b, r.Query...)
	}
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, u.Host...)
	b = append(b, "\r\nUser-Agent: benchbed\r\nX-Auth-Token: "...)
	b = append(b, token...)
	if r.Method == http.MethodPut {
		b = append(b, "\r\nContent-Length: "...)
		b = strconv.AppendInt(b, r.bodySize(), 10)
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			b = append(b, "\r\n"...)
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
		}
	}
	return append(b, "\r\n\r\n"...)
}

// drainBuffer is a session's read buffer when its bodies are drained in
// the kernel: a response head, line by line (a longer line than this is
// skipped), and the start of a body.
const drainBuffer = 2 << 10

// errMalformed is a response this client cannot parse.
var errMalformed = errors.New("malformed HTTP response")

// readBuffer is the size of a session's read buffer: ReadBuffer, or 64 KiB.
func (c *Client) readBuffer() int {
	if c.ReadBuffer > 0 {
		return c.ReadBuffer
	}
	return 64 << 10
}

// readBufferFor is the read buffer for each of users sessions: ReadBuffer,
// or 128 KiB (a 64 KiB object and its head in one read) shrunk so that all
// of them hold at most 8 MiB (4 KiB at least).
func (c *Client) readBufferFor(users int) int {
	if c.ReadBuffer > 0 {
		return c.ReadBuffer
	}
	return max(4<<10, min(128<<10, (8<<20)/max(users, 1)))
}
