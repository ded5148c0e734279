package proxylog

import "time"

// Kind is what a request is about, from its path.
type Kind uint8

// The kinds of request.
const (
	KindOther     Kind = iota // /info, /healthcheck, anything else
	KindAuth                  // /auth/..., /v1.0 (tempauth), /v2.0, /v3 (keystone)
	KindAccount               // /v1/AUTH_a, or S3's "/" (list buckets)
	KindContainer             // /v1/AUTH_a/c, or S3's "/bucket"
	KindObject                // /v1/AUTH_a/c/o, or S3's "/bucket/key"
)

var kindNames = [...]string{"other", "auth", "account", "container", "object"}

// String is the kind's name: "object".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "other"
}

// Record is one access log line, the fields the fit and the replay use.
// Account is kept only to tell objects apart: it is never to be written
// out (nor is any auth token, which is not even read).
type Record struct {
	Start       time.Time     // when the request began (start_time, else end_time - request_time)
	Method      string        // GET, PUT, HEAD, DELETE, POST, COPY...
	Kind        Kind          // what the path names
	S3          bool          // the path was S3-style (s3api)
	Account     string        // unquoted; never written out
	Container   string        // unquoted
	Object      string        // unquoted
	Query       string        // the path's query string, quoted as logged
	Status      int           // status_int
	BytesRecvd  int64         // request body bytes
	BytesSent   int64         // response body bytes
	RequestTime time.Duration // request_time: the proxy's whole time
	TTFB        time.Duration // ttfb, when the template has it (else 0)
	Source      string        // swift.source: a middleware's subrequest when not empty
}

// Client reports whether r is a client's request, not a middleware's
// subrequest (which carries a source).
func (r *Record) Client() bool { return r.Source == "" }

// Key is a well-mixed 64-bit hash of the request's account, container and
// object: how the fit and the replay know an object without keeping or
// showing its name.
func (r *Record) Key() uint64 { return Hash(r.Account, r.Container, r.Object) }

// ContainerKey is the hash of the request's account and container.
func (r *Record) ContainerKey() uint64 { return Hash(r.Account, r.Container) }

// Hash is FNV-1a over parts joined by "/", its bits spread by splitmix64's
// finaliser (FNV's high bits alone mix poorly).
func Hash(parts ...string) uint64 {
	h := uint64(14695981039346656037)
	for i, p := range parts {
		if i > 0 {
			h = (h ^ '/') * 1099511628211
		}
		for j := 0; j < len(p); j++ {
			h = (h ^ uint64(p[j])) * 1099511628211
		}
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}
