package load

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// scriptServer answers the requests of each connection with the next
// canned responses, then closes the connection when closeAfter is set.
func scriptServer(t *testing.T, closeAfter bool, responses ...string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for _, resp := range responses {
					for { // skip the request head (the tests send no bodies)
						line, err := r.ReadString('\n')
						if err != nil {
							return
						}
						if line == "\r\n" {
							break
						}
					}
					if _, err := c.Write([]byte(resp)); err != nil {
						return
					}
				}
				if !closeAfter {
					_, _ = io.Copy(io.Discard, r) // hold the connection until the client goes
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

func sessionGet(t *testing.T, s *Session, method string) (Outcome, string) {
	t.Helper()
	var body strings.Builder
	o := s.Do(&Request{Method: method, Container: "c", Object: "o", Sink: &body}, time.Now())
	return o, body.String()
}

func TestSessionResponseFraming(t *testing.T) {
	url := scriptServer(t, false,
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: t\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", // a HEAD: no body follows
		"HTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 404 Not Found\r\ncontent-length: 3\r\n\r\nnop",
	)
	s := staticClient(url, 1).NewSession(context.Background())
	defer s.Close()
	want := []struct {
		method, body string
		status       int
	}{{"GET", "hello", 200}, {"GET", "abcde", 200}, {"HEAD", "", 200}, {"DELETE", "", 204}, {"GET", "nop", 404}}
	for i, w := range want {
		o, body := sessionGet(t, s, w.method)
		if o.Err != nil || o.Status != w.status || body != w.body || o.LastByte < o.FirstByte {
			t.Fatalf("response %d: %+v body %q, want %d %q", i, o, body, w.status, w.body)
		}
	}
}

func TestSessionBodyToCloseAndReconnect(t *testing.T) {
	url := scriptServer(t, true, "HTTP/1.0 200 OK\r\n\r\nuntil close")
	s := staticClient(url, 1).NewSession(context.Background())
	defer s.Close()
	for i := range 3 { // each answer closes the connection: the session redials
		if o, body := sessionGet(t, s, "GET"); !o.OK() || body != "until close" || o.Retries != 0 {
			t.Fatalf("request %d: %+v %q", i, o, body)
		}
	}
	keep := scriptServer(t, true, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	s2 := staticClient(keep, 1).NewSession(context.Background())
	defer s2.Close()
	for i := range 3 { // the server closes after one answer, unannounced: a transparent redial
		if o, body := sessionGet(t, s2, "GET"); !o.OK() || body != "ok" || o.Retries != 0 {
			t.Fatalf("keep-alive request %d: %+v %q", i, o, body)
		}
	}
}

func TestSessionMalformed(t *testing.T) {
	for _, resp := range []string{"SMTP ready\r\n", "HTTP/1.1 abc OK\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
		"HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"} {
		s := staticClient(scriptServer(t, true, resp), 1).NewSession(context.Background())
		s.c.MaxRetries = 0
		if o, _ := sessionGet(t, s, "GET"); o.Err == nil || o.ErrorKey() != "transport_other" {
			t.Errorf("%q: %+v", resp, o)
		}
		s.Close()
	}
}

func TestSessionPutAndReauth(t *testing.T) {
	f := newFakeSwift(t)
	f.put("c", "x", 1)
	c := v1Client(f, "testing")
	s := c.NewSession(context.Background())
	defer s.Close()
	if o := s.Do(&Request{Method: http.MethodPut, Container: "c", Object: "o", Size: 200000,
		Header: http.Header{"X-Delete-After": {"60"}}}, time.Now()); !o.OK() || f.objects["c/o"] != 200000 {
		t.Fatalf("PUT: %+v, stored %d", o, f.objects["c/o"])
	}
	f.expire()
	o, _ := sessionGet(t, s, http.MethodGet)
	if !o.OK() || o.Retries != 1 || f.tokens != 2 || f.headers["X-Delete-After"][0] != "60" {
		t.Fatalf("after expiry: %+v, %d tokens", o, f.tokens)
	}
}

func TestSessionCancelUnblocks(t *testing.T) {
	url := scriptServer(t, false) // accepts, never answers
	ctx, cancel := context.WithCancel(context.Background())
	s := staticClient(url, 1).NewSession(ctx)
	defer s.Close()
	done := make(chan Outcome, 1)
	go func() { o, _ := sessionGet(t, s, "GET"); done <- o }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case o := <-done:
		if o.ErrorKey() != "transport_canceled" {
			t.Errorf("cancelled request: %+v key %q", o, o.ErrorKey())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a cancelled request still blocks after 30 s")
	}
}
