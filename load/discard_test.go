package load

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// bigResponses are answers whose bodies are larger than a drained
// session's buffer, each framed another way, and then a small one whose
// body is kept: it is right only when every body before it was dropped to
// its exact end.
func bigResponses() []string {
	big := strings.Repeat("x", 200000)
	chunked := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
		strconv.FormatInt(70000, 16) + "\r\n" + big[:70000] + "\r\n" +
		strconv.FormatInt(3, 16) + "\r\nabc\r\n0\r\n\r\n"
	return []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 200000\r\n\r\n" + big,
		chunked,
		"HTTP/1.1 404 Not Found\r\nContent-Length: 5000\r\n\r\n" + big[:5000],
		"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nlast",
	}
}

// TestDrainedBodiesKeepTheFraming: discarded bodies (no Sink) dropped in
// the kernel leave the connection exactly at the next response, on one
// connection, with or without the drain.
func TestDrainedBodiesKeepTheFraming(t *testing.T) {
	for _, noDrain := range []bool{false, true} {
		url := scriptServer(t, false, bigResponses()...)
		c := staticClient(url, 1)
		c.NoDrain = noDrain
		s := c.NewSession(context.Background())
		for i, want := range []int{200, 200, 404} {
			o := s.Do(&Request{Method: "GET", Container: "c", Object: "o"}, time.Now())
			if o.Err != nil || o.Status != want || o.Retries != 0 || o.LastByte < o.FirstByte {
				t.Fatalf("noDrain %v, response %d: %+v", noDrain, i, o)
			}
		}
		if (s.drain != nil) == noDrain || runtime.GOOS != "linux" && s.drain != nil {
			t.Errorf("noDrain %v: drain %v on %s", noDrain, s.drain, runtime.GOOS)
		}
		if noDrain == false && runtime.GOOS == "linux" && s.br.Size() != drainBuffer {
			t.Errorf("a drained session reads through %d B, want %d", s.br.Size(), drainBuffer)
		}
		o, body := sessionGet(t, s, "GET")
		if !o.OK() || body != "last" || o.Retries != 0 {
			t.Fatalf("noDrain %v, after the drained bodies: %+v %q", noDrain, o, body)
		}
		s.Close()
	}
}

// TestDrainCutShortIsAnError: a body the server cuts short is an EOF
// error of the request, drained or not, and the session redials.
func TestDrainCutShortIsAnError(t *testing.T) {
	short := "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + strings.Repeat("y", 50000)
	url := scriptServer(t, true, short)
	c := staticClient(url, 1)
	c.MaxRetries = 0
	s := c.NewSession(context.Background())
	defer s.Close()
	for i := range 2 {
		o := s.Do(&Request{Method: "GET", Container: "c", Object: "o"}, time.Now())
		if o.ErrorKey() != "transport_eof" || o.Status != 200 {
			t.Fatalf("request %d: %+v key %q", i, o, o.ErrorKey())
		}
	}
}

// TestDrainSkip: the drain drops what the peer sent, never more than
// asked, waits for bytes not there yet, and says EOF when the peer closed.
func TestDrainSkip(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel drain is Linux's")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	peer := make(chan net.Conn, 1)
	go func() { c, _ := ln.Accept(); peer <- c }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	p := <-peer
	d := newDrain(conn)
	if d == nil {
		t.Fatal("no drain on a TCP connection")
	}
	go func() {
		_, _ = p.Write(make([]byte, 1000))
		time.Sleep(20 * time.Millisecond) // the drain waits for the rest
		_, _ = p.Write([]byte("0123456789"))
		_ = p.Close()
	}()
	var got int64
	for got < 1005 {
		k, err := d.skip(1005 - got)
		if err != nil || k <= 0 {
			t.Fatalf("skip after %d: %d, %v", got, k, err)
		}
		got += k
	}
	rest, err := io.ReadAll(conn)
	if err != nil || string(rest) != "56789" {
		t.Fatalf("after the drain: %q, %v", rest, err)
	}
	if k, err := d.skip(1); k != 0 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("skip at EOF: %d, %v", k, err)
	}
}

// BenchmarkSessionGet measures a session's cost per GET of 64 KiB against
// a local server, its body dropped (in the kernel on Linux), allocations
// included (go test -bench SessionGet -benchmem ./load).
func BenchmarkSessionGet(b *testing.B) {
	body := strings.Repeat("z", 64<<10)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		resp := []byte("HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\n" + body)
		buf := make([]byte, 4096)
		for {
			if _, err := c.Read(buf); err != nil { // one request a read: the client sends one at a time
				return
			}
			if _, err := c.Write(resp); err != nil {
				return
			}
		}
	}()
	s := staticClient("http://"+ln.Addr().String(), 1).NewSession(context.Background())
	defer s.Close()
	req := &Request{Method: "GET", Container: "c", Object: "o"}
	b.ReportAllocs()
	for b.Loop() {
		if o := s.Do(req, time.Now()); !o.OK() {
			b.Fatal(describe(o))
		}
	}
}

// TestLongHeaderLines: a header line longer than a session's read buffer
// is skipped (the response and the next one are read right), unless it is
// one that frames the body, which is malformed.
func TestLongHeaderLines(t *testing.T) {
	long := "X-Object-Meta-Long: " + strings.Repeat("m", 10000) + "\r\n"
	url := scriptServer(t, false,
		"HTTP/1.1 200 OK\r\n"+long+"Content-Length: 5\r\n"+long+"\r\nhello",
		"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext")
	for _, bufSize := range []int{0, 1024} { // a drained session's buffer, and a small one that copies
		c := staticClient(url, 1)
		c.ReadBuffer, c.NoDrain = bufSize, bufSize > 0
		s := c.NewSession(context.Background())
		for _, want := range []string{"hello", "next"} {
			if o, body := sessionGet(t, s, "GET"); !o.OK() || body != want || o.Retries != 0 {
				t.Fatalf("buffer %d: %+v %q, want %q", bufSize, o, body, want)
			}
		}
		s.Close()
	}
	bad := scriptServer(t, true, "HTTP/1.1 200 OK\r\nContent-Length: 5"+strings.Repeat(" ", 5000)+"\r\n\r\nhello")
	c := staticClient(bad, 1)
	c.MaxRetries = 0
	s := c.NewSession(context.Background())
	defer s.Close()
	if o, _ := sessionGet(t, s, "GET"); o.Err == nil || o.ErrorKey() != "transport_other" {
		t.Errorf("an overlong Content-Length line: %+v", o)
	}
}
