package load

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/smithy-go/aws-http-auth/credentials"
	"github.com/aws/smithy-go/aws-http-auth/sigv4"
	v4 "github.com/aws/smithy-go/aws-http-auth/v4"
)

// S3Config is an S3 endpoint and the credentials requests are signed
// with (SigV4). The secret key is sensitive: String never shows it, and
// no error carries it.
type S3Config struct {
	Endpoint  string `json:"endpoint"`         // http://host:port[/path] (https through net/http)
	AccessKey string `json:"access_key"`       // Swift's tempauth: account:user
	SecretKey string `json:"secret_key"`       // Swift's tempauth: the user's key
	Region    string `json:"region,omitempty"` // the region signed for: s3api's location ("": us-east-1)
	// PathStyle addresses buckets as /bucket/key on the endpoint's host;
	// else as virtual hosts (bucket.host/key), the endpoint's host still
	// the one connected to.
	PathStyle bool `json:"path_style,omitempty"`
	// SignPayload signs each body's SHA-256 (hashed); else the payload is
	// UNSIGNED-PAYLOAD. Never aws-chunked streaming (Swift 2.30's s3api
	// answers it 501).
	SignPayload bool `json:"sign_payload,omitempty"`
}

// DefaultRegion is the region signed for when none is given: s3api's
// default location, and AWS's first.
const DefaultRegion = "us-east-1"

// String never shows the secret key.
func (c S3Config) String() string {
	style := "virtual-host"
	if c.PathStyle {
		style = "path"
	}
	return fmt.Sprintf("S3 %s (region %s, %s-style) as access key %q", c.Endpoint, c.region(), style, c.AccessKey)
}

func (c S3Config) region() string {
	if c.Region == "" {
		return DefaultRegion
	}
	return c.Region
}

// s3API is S3 on one endpoint: containers are buckets (S3Bucket's names),
// large objects multipart uploads, every request SigV4-signed.
type s3API struct {
	cfg     S3Config
	base    *url.URL
	raw     string // base without its trailing slash
	creds   credentials.Credentials
	signer  *sigv4.Signer
	signers signers // the sessions' fast signers
}

var _ API = (*s3API)(nil)

// NewS3 returns the S3 API on cfg's endpoint, for a Client's API. The
// signer is smithy-go's SigV4 (aws-http-auth): header signatures, the
// payload hash sent as X-Amz-Content-Sha256, the path not escaped twice
// (S3's rule).
func NewS3(cfg S3Config) (API, error) {
	u, err := url.Parse(strings.TrimSuffix(cfg.Endpoint, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" {
		return nil, fmt.Errorf("S3 endpoint %q: want http(s)://host[:port][/path]", cfg.Endpoint)
	}
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, errors.New("S3: an access key and a secret key are needed")
	}
	return &s3API{cfg: cfg, base: u, raw: u.String(),
		creds: credentials.Credentials{AccessKeyID: cfg.AccessKey, SecretAccessKey: cfg.SecretKey},
		signer: sigv4.New(func(o *v4.SignerOptions) {
			o.AddPayloadHashHeader = true
			o.DisableDoublePathEscape = true
			o.DisableImplicitPayloadHashing = true
		})}, nil
}

// S3Bucket is the bucket a scenario's container becomes: its name in
// lower case with '-' for '_' (ssbench's "base1_64K_000000_default_policy"
// is "base1-64k-000000-default-policy"), as DNS-compliant bucket names
// must be (s3api's default).
func S3Bucket(container string) string {
	return strings.ReplaceAll(strings.ToLower(container), "_", "-")
}

func (a *s3API) target(context.Context) (string, string, error) { return a.raw, "", nil }

func (a *s3API) refused(string) {}

func (a *s3API) errorBodies() bool { return true }

// address returns r's Host header and its path (unescaped).
func (a *s3API) address(r *Request) (host, path string) {
	bucket := S3Bucket(r.Container)
	var b strings.Builder
	b.Grow(len(a.base.Path) + len(bucket) + len(r.Object) + 2)
	b.WriteString(a.base.Path)
	host = a.base.Host
	if a.cfg.PathStyle {
		b.WriteByte('/')
		b.WriteString(bucket)
	} else {
		host = bucket + "." + a.base.Host
	}
	if r.Object != "" || !a.cfg.PathStyle {
		b.WriteByte('/')
		b.WriteString(r.Object)
	}
	return host, b.String()
}

// emptySHA256 is the SHA-256 of no bytes, the payload hash of a request
// without a body when payloads are signed.
var emptySHA256 = sha256.Sum256(nil)

// unsignedPayload is the payload hash of an unsigned body.
var unsignedPayload = []byte("UNSIGNED-PAYLOAD")

// payloadHash returns what r's X-Amz-Content-Sha256 says of its body.
func (a *s3API) payloadHash(r *Request) []byte {
	switch {
	case !a.cfg.SignPayload:
		return unsignedPayload
	case !r.hasBody() || r.bodySize() == 0:
		return emptySHA256[:]
	}
	h := sha256.New()
	_, _ = r.newBody().WriteTo(h) // a hash never fails
	return h.Sum(nil)
}

// signed returns r as a signed net/http request to the endpoint's host
// (ctx's, with r's body, when it is to be sent by net/http; else bodiless).
func (a *s3API) signed(ctx context.Context, r *Request, withBody bool, now time.Time) (*http.Request, error) {
	host, path := a.address(r)
	u := &url.URL{Scheme: a.base.Scheme, Host: a.base.Host, Path: path, RawQuery: r.Query}
	var req *http.Request
	if withBody {
		var err error
		if req, err = newHTTPRequest(ctx, u.String(), r); err != nil {
			return nil, err
		}
	} else {
		req = &http.Request{Method: r.Method, URL: u, Header: make(http.Header, len(r.Header)+4)}
		for k, v := range r.Header {
			req.Header[k] = v
		}
	}
	req.Host = host
	err := a.signer.SignRequest(&sigv4.SignRequestInput{Request: req, PayloadHash: a.payloadHash(r),
		Credentials: a.creds, Service: "s3", Region: a.cfg.region(), Time: now})
	if err != nil {
		return nil, fmt.Errorf("S3: signing %s %s: %v", r.Method, path, err) // the error never holds the secret
	}
	return req, nil
}

func (a *s3API) newRequest(ctx context.Context, _, _ string, r *Request) (*http.Request, error) {
	return a.signed(ctx, r, true, time.Now())
}

// appendHead appends r's request line and its signed headers to b: by the
// fast signer when it can, else by smithy's.
func (a *s3API) appendHead(b []byte, _ *url.URL, _ string, r *Request) ([]byte, error) {
	if fastOK(r) {
		s := a.getSigner()
		b = s.appendSigned(b, r, time.Now())
		a.signers.pool.Put(s)
		return b, nil
	}
	req, err := a.signed(context.Background(), r, false, time.Now())
	if err != nil {
		return b, err
	}
	b = append(b, r.Method...)
	b = append(b, ' ')
	b = append(b, req.URL.EscapedPath()...)
	if r.Query != "" {
		b = append(b, '?')
		b = append(b, r.Query...)
	}
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, req.Host...)
	b = append(b, "\r\nUser-Agent: benchbed"...)
	if r.hasBody() || r.Method == http.MethodPut || r.Method == http.MethodPost {
		b = append(b, "\r\nContent-Length: "...)
		b = strconv.AppendInt(b, r.bodySize(), 10)
	}
	for k, vs := range req.Header {
		if k == "Host" {
			continue
		}
		for _, v := range vs {
			b = append(b, "\r\n"...)
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
		}
	}
	return append(b, "\r\n\r\n"...), nil
}
