package proxylog

import "strings"

// setPath classifies a logged path (path_qs, URL-quoted) and keeps its
// account, container, object and query.
func (r *Record) setPath(v string) {
	p, q, _ := strings.Cut(v, "?")
	r.Query = q
	p = unquote(p)
	switch {
	case strings.HasPrefix(p, "/v1/"):
		a, rest, _ := strings.Cut(p[len("/v1/"):], "/")
		c, o, _ := strings.Cut(rest, "/")
		r.Account, r.Container, r.Object = a, c, o
		r.Kind = kindOf(a, c, o)
	case isAuth(p):
		r.Kind = KindAuth
	case isOther(p):
		r.Kind = KindOther
	default: // s3api: "/", "/bucket", "/bucket/key"
		c, o, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
		r.S3, r.Container, r.Object = true, c, o
		r.Kind = kindOf("s3", c, o)
	}
}

// kindOf is the kind of a request on account a, container c, object o.
func kindOf(a, c, o string) Kind {
	switch {
	case o != "":
		return KindObject
	case c != "":
		return KindContainer
	case a != "":
		return KindAccount
	}
	return KindOther
}

// authPrefixes are the paths of the auth systems a proxy serves.
var authPrefixes = []string{"/auth/", "/v1.0", "/v2.0", "/v3/", "/v3"}

// isAuth reports whether p is an auth request's path.
func isAuth(p string) bool {
	if p == "/auth" {
		return true
	}
	for _, a := range authPrefixes {
		if p == a || strings.HasPrefix(p, a) && (strings.HasSuffix(a, "/") || strings.HasPrefix(p[len(a):], "/")) {
			return true
		}
	}
	return false
}

// isOther reports whether p is one of the proxy's own paths.
func isOther(p string) bool {
	switch p {
	case "/info", "/healthcheck", "/crossdomain.xml", "/v1", "/v1/", "":
		return true
	}
	return !strings.HasPrefix(p, "/")
}
