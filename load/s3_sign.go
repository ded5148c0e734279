package load

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// fastSigner signs the requests a session sends most, a plain object or
// bucket request without a query or x-amz- headers of its own, as
// smithy-go's SigV4 signer signs them (Authorization byte for byte: the
// tests compare the two) but at the Swift client's speed: the day's
// signing key derived once, the canonical request and the head built in
// reused buffers, nothing allocated per request. Smithy's derives the key
// (four HMACs) and builds an http.Request, maps and strings each time:
// measured here, 1.8x the Swift client's CPU per request. Every other
// request (multipart, listings, net/http's) is smithy's.
type fastSigner struct {
	a     *s3API
	day   [8]byte   // the day of key
	key   []byte    // the signing key of day, region and s3
	mac   hash.Hash // HMAC-SHA256 with key
	sha   hash.Hash
	date  []byte // X-Amz-Date, 20060102T150405Z
	sec   int64  // the Unix second of date
	path  []byte // the canonical (and wire) path
	canon []byte // the canonical request, then the string to sign
	sum   [sha256.Size]byte
	sig   [2 * sha256.Size]byte
}

// fastOK reports whether r is one the fast signer signs.
func fastOK(r *Request) bool {
	if r.Query != "" {
		return false
	}
	for k := range r.Header {
		if len(k) >= 6 && strings.EqualFold(k[:6], "x-amz-") {
			return false
		}
	}
	return true
}

// signers pools the fast signers of an API's sessions.
type signers struct{ pool sync.Pool }

func (a *s3API) getSigner() *fastSigner {
	if s, ok := a.signers.pool.Get().(*fastSigner); ok {
		return s
	}
	return &fastSigner{a: a, sha: sha256.New()}
}

// appendURIPath appends p with S3's URI encoding (all but unreserved
// characters and '/' as %XX).
func appendURIPath(b []byte, p string) []byte {
	const hexUpper = "0123456789ABCDEF"
	for i := range len(p) {
		c := p[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || c == '/' {
			b = append(b, c)
		} else {
			b = append(b, '%', hexUpper[c>>4], hexUpper[c&15])
		}
	}
	return b
}

// appendBucket appends S3Bucket(container) without allocating.
func appendBucket(b []byte, container string) []byte {
	for i := range len(container) {
		c := container[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '_':
			c = '-'
		}
		b = append(b, c)
	}
	return b
}

// appendHost appends r's Host: the endpoint's, or bucket.endpoint's.
func (a *s3API) appendHost(b []byte, r *Request) []byte {
	if !a.cfg.PathStyle {
		b = appendBucket(b, r.Container)
		b = append(b, '.')
	}
	return append(b, a.base.Host...)
}

// appendPath appends r's path, URI-encoded.
func (a *s3API) appendPath(b []byte, r *Request) []byte {
	b = appendURIPath(b, a.base.Path)
	if a.cfg.PathStyle {
		b = append(b, '/')
		b = appendBucket(b, r.Container)
	}
	if r.Object != "" || !a.cfg.PathStyle {
		b = append(b, '/')
		b = appendURIPath(b, r.Object)
	}
	return b
}

// signingKey derives the key of the day in s.date, once a day.
func (s *fastSigner) signingKey() {
	if s.key != nil && string(s.day[:]) == string(s.date[:8]) {
		return
	}
	copy(s.day[:], s.date[:8])
	k := hmacSum([]byte("AWS4"+s.a.cfg.SecretKey), s.day[:])
	k = hmacSum(k, []byte(s.a.cfg.region()))
	k = hmacSum(k, []byte("s3"))
	s.key = hmacSum(k, []byte("aws4_request"))
	s.mac = hmac.New(sha256.New, s.key)
}

func hmacSum(key, data []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(data)
	return m.Sum(nil)
}

// appendSigned appends r's request line and headers, signed at now, to b.
func (s *fastSigner) appendSigned(b []byte, r *Request, now time.Time) []byte {
	a := s.a
	if sec := now.Unix(); sec != s.sec || len(s.date) == 0 { // formatted once a second
		s.date, s.sec = now.UTC().AppendFormat(s.date[:0], "20060102T150405Z"), sec
	}
	s.signingKey()
	payload := a.payloadHash(r)
	hashHex := string(unsignedPayload)
	if a.cfg.SignPayload {
		hashHex = hex.EncodeToString(payload) // hashed payloads cost a body's SHA-256 anyway
	}
	s.path = a.appendPath(s.path[:0], r)
	if len(s.path) == 0 {
		s.path = append(s.path, '/')
	}
	b = append(b, r.Method...)
	b = append(b, ' ')
	b = append(b, s.path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	hostStart := len(b) // the host, written into b, goes into the canonical request too
	b = a.appendHost(b, r)
	host := b[hostStart:]

	c := append(s.canon[:0], r.Method...)
	c = append(c, '\n')
	c = append(c, s.path...)
	c = append(c, "\n\nhost:"...)
	c = append(c, host...)
	c = append(c, "\nx-amz-content-sha256:"...)
	c = append(c, hashHex...)
	c = append(c, "\nx-amz-date:"...)
	c = append(c, s.date...)
	c = append(c, "\n\nhost;x-amz-content-sha256;x-amz-date\n"...)
	c = append(c, hashHex...)
	s.sha.Reset()
	s.sha.Write(c)
	s.sha.Sum(s.sum[:0])

	c = append(c[:0], "AWS4-HMAC-SHA256\n"...)
	c = append(c, s.date...)
	c = append(c, '\n')
	scope := len(c)
	c = a.appendScope(c, s.date[:8])
	scopeEnd := len(c)
	c = append(c, '\n')
	c = hex.AppendEncode(c, s.sum[:])
	s.mac.Reset()
	s.mac.Write(c)
	hex.Encode(s.sig[:], s.mac.Sum(s.sum[:0]))

	b = append(b, "\r\nUser-Agent: benchbed"...)
	if r.hasBody() || r.Method == http.MethodPut || r.Method == http.MethodPost {
		b = append(b, "\r\nContent-Length: "...)
		b = strconv.AppendInt(b, r.bodySize(), 10)
	}
	b = append(b, "\r\nX-Amz-Date: "...)
	b = append(b, s.date...)
	b = append(b, "\r\nX-Amz-Content-Sha256: "...)
	b = append(b, hashHex...)
	b = append(b, "\r\nAuthorization: AWS4-HMAC-SHA256 Credential="...)
	b = append(b, a.cfg.AccessKey...)
	b = append(b, '/')
	b = append(b, c[scope:scopeEnd]...)
	b = append(b, ", SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="...)
	b = append(b, s.sig[:]...)
	for k, vs := range r.Header {
		for _, v := range vs {
			b = append(b, "\r\n"...)
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
		}
	}
	s.canon = c
	return append(b, "\r\n\r\n"...)
}

// appendScope appends the credential scope of day: day/region/s3/aws4_request.
func (a *s3API) appendScope(b, day []byte) []byte {
	b = append(b, day...)
	b = append(b, '/')
	b = append(b, a.cfg.region()...)
	return append(b, "/s3/aws4_request"...)
}
