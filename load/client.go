package load

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Client is a Swift client for load: keep-alive connections pooled for the
// number of users, one token for all of them, re-auth on 401.
type Client struct {
	HTTP       *http.Client
	Auth       Auth
	MaxRetries int // attempts after the first on 401, 503 or a transport error
	ReadBuffer int // bytes of each session's read buffer (0: 64 KiB)
	// NoDrain makes sessions read discarded bodies into their buffer and
	// drop them, instead of dropping them in the kernel (Linux's recv
	// MSG_TRUNC) without a copy.
	NoDrain bool
}

// NewTransport returns an HTTP transport that keeps conns connections per
// host alive, without compression, proxies or HTTP/2.
func NewTransport(conns int) *http.Transport {
	return &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          conns + 16,
		MaxIdleConnsPerHost:   conns + 16,
		IdleConnTimeout:       90 * time.Second,
		DisableCompression:    true,
		ResponseHeaderTimeout: 5 * time.Minute,
		ForceAttemptHTTP2:     false,
		WriteBufferSize:       64 << 10,
		ReadBufferSize:        64 << 10,
	}
}

// NewClient returns a client whose pool fits users concurrent requests.
func NewClient(auth Auth, users int) *Client {
	return &Client{HTTP: &http.Client{Transport: NewTransport(users)}, Auth: auth, MaxRetries: 3}
}

// Outcome is what one operation gave. Latencies count from the start the
// caller passed (the intended send time in open loop).
type Outcome struct {
	Status    int           // the last HTTP status, 0 on a transport error
	FirstByte time.Duration // until the response headers arrived
	LastByte  time.Duration // until the body was read to its end
	Retries   int
	Err       error // transport or auth error, nil on any HTTP answer
}

// OK reports whether the operation succeeded (2xx).
func (o Outcome) OK() bool { return o.Err == nil && o.Status/100 == 2 }

// ErrorKey names a failed outcome for the error counters: "http_404",
// "transport_timeout", "auth"... and "" for a success.
func (o Outcome) ErrorKey() string {
	switch {
	case o.OK():
		return ""
	case o.Err != nil:
		return classify(o.Err)
	default:
		return "http_" + strconv.Itoa(o.Status)
	}
}

// Request is one Swift object or container request.
type Request struct {
	Method    string
	Container string
	Object    string      // "" for a container request
	Size      int64       // body bytes for PUT
	Offset    int64       // a PUT's body is the generated content from this offset (a segment's place in its object)
	Body      []byte      // a PUT's body instead of generated content (a large object's manifest)
	Header    http.Header // extra headers (X-Delete-After, X-Storage-Policy...)
	Query     string      // raw query for listings
	Sink      io.Writer   // where a GET body goes (nil: discarded)
}

// Do runs r, retrying on 401 (after re-auth), 503 and transport errors, and
// measures from start.
func (c *Client) Do(ctx context.Context, r *Request, start time.Time) Outcome {
	var o Outcome
	for attempt := 0; ; attempt++ {
		restartSink(r)
		o = c.once(ctx, r, start)
		o.Retries = attempt
		if attempt >= c.MaxRetries || ctx.Err() != nil || !retryable(o) {
			return o
		}
	}
}

func retryable(o Outcome) bool {
	if o.Err != nil {
		return !errors.Is(o.Err, ErrAuth)
	}
	return o.Status == http.StatusUnauthorized || o.Status == http.StatusServiceUnavailable
}

func (c *Client) once(ctx context.Context, r *Request, start time.Time) Outcome {
	su, tok, err := c.Auth.Token(ctx)
	if err != nil {
		return Outcome{Err: err}
	}
	req, err := c.newRequest(ctx, su, tok, r)
	if err != nil {
		return Outcome{Err: err}
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Outcome{Err: err}
	}
	o := Outcome{Status: resp.StatusCode, FirstByte: time.Since(start)}
	sink := r.Sink
	if sink == nil {
		sink = io.Discard
	}
	_, err = io.Copy(sink, resp.Body)
	_ = resp.Body.Close()
	o.LastByte = time.Since(start)
	if err != nil {
		o.Err = err
	}
	if resp.StatusCode == http.StatusUnauthorized {
		c.Auth.Invalidate(tok)
	}
	return o
}

func (c *Client) newRequest(ctx context.Context, storageURL, token string, r *Request) (*http.Request, error) {
	var sb strings.Builder
	sb.Grow(len(storageURL) + len(r.Container) + len(r.Object) + len(r.Query) + 3)
	sb.WriteString(strings.TrimSuffix(storageURL, "/"))
	sb.WriteByte('/')
	sb.WriteString(url.PathEscape(r.Container))
	if r.Object != "" {
		sb.WriteByte('/')
		sb.WriteString(url.PathEscape(r.Object))
	}
	if r.Query != "" {
		sb.WriteByte('?')
		sb.WriteString(r.Query)
	}
	var rd io.Reader
	if r.Method == http.MethodPut && r.Object != "" {
		rd = r.newBody()
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, sb.String(), rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.ContentLength = r.bodySize()
		req.GetBody = func() (io.ReadCloser, error) { return r.newBody(), nil }
		if req.ContentLength == 0 {
			req.Body = http.NoBody
		}
	}
	for k, v := range r.Header {
		req.Header[k] = v
	}
	req.Header["X-Auth-Token"] = []string{token}
	return req, nil
}

// classify names a transport error for the counters.
func classify(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, ErrAuth):
		return "auth"
	case errors.Is(err, ErrCorrupt):
		return "corrupt"
	case errors.Is(err, context.Canceled):
		return "transport_canceled"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout():
		return "transport_timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "transport_refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "transport_reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "transport_eof"
	default:
		return "transport_other"
	}
}
