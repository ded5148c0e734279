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

// Client is an object-storage client for load: keep-alive connections
// pooled for the number of users; on Swift's API one token for all of
// them, re-auth on 401; on S3 (API set by NewS3) every request signed.
type Client struct {
	HTTP       *http.Client
	Auth       Auth // Swift's auth (unused when API is set)
	API        API  // the API spoken: nil for Swift's through Auth, or NewS3's
	MaxRetries int  // attempts after the first on 401, 503 or a transport error
	ReadBuffer int  // bytes of each session's read buffer (0: 64 KiB)
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
	Err       error  // transport or auth error, nil on any HTTP answer
	Code      string // the error code a failed answer's body named (S3's "SlowDown"...), "" when none
}

// OK reports whether the operation succeeded (2xx, and no error named in
// its body, as S3 may after a 200).
func (o Outcome) OK() bool { return o.Err == nil && o.Status/100 == 2 && o.Code == "" }

// ErrorKey names a failed outcome for the error counters: "http_404",
// "s3_SlowDown" (an S3 error code), "transport_timeout", "auth"... and ""
// for a success.
func (o Outcome) ErrorKey() string {
	switch {
	case o.OK():
		return ""
	case o.Err != nil:
		return classify(o.Err)
	case o.Code != "":
		return "s3_" + o.Code
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
	Reply     *Reply      // what to keep of the response's headers (nil: nothing)
}

// Reply is what a request keeps of its response's headers.
type Reply struct {
	ETag string // the ETag header (an S3 part's, for its upload's completion)
}

// hasBody reports whether r sends a body: an object PUT's, or any Body.
func (r *Request) hasBody() bool {
	return r.Body != nil || r.Method == http.MethodPut && r.Object != ""
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
	api := c.api()
	su, tok, err := api.target(ctx)
	if err != nil {
		return Outcome{Err: err}
	}
	req, err := api.newRequest(ctx, su, tok, r)
	if err != nil {
		return Outcome{Err: err}
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Outcome{Err: err}
	}
	o := Outcome{Status: resp.StatusCode, FirstByte: time.Since(start)}
	if r.Reply != nil {
		r.Reply.ETag = resp.Header.Get("ETag")
	}
	sink := r.Sink
	if sink == nil {
		sink = io.Discard
	}
	var errBody *limitedBuffer
	if resp.StatusCode >= 300 && api.errorBodies() {
		errBody = &limitedBuffer{}
		sink = errBody
	}
	_, err = io.Copy(sink, resp.Body)
	_ = resp.Body.Close()
	o.LastByte = time.Since(start)
	if err != nil {
		o.Err = err
	}
	if errBody != nil {
		o.Code = s3ErrorCode(errBody.b)
	}
	if resp.StatusCode == http.StatusUnauthorized {
		api.refused(tok)
	}
	return o
}

// newSwiftRequest returns r as a request to Swift's storage URL with the token.
func newSwiftRequest(ctx context.Context, storageURL, token string, r *Request) (*http.Request, error) {
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
	req, err := newHTTPRequest(ctx, sb.String(), r)
	if err != nil {
		return nil, err
	}
	req.Header["X-Auth-Token"] = []string{token}
	return req, nil
}

// newHTTPRequest returns r as a net/http request to u, with its body and headers.
func newHTTPRequest(ctx context.Context, u string, r *Request) (*http.Request, error) {
	var rd io.Reader
	if r.hasBody() {
		rd = r.newBody()
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, u, rd)
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
