package proxylog

import (
	"fmt"
	"strings"
)

// Stats counts what a Reader read.
type Stats struct {
	Lines   int64 // lines read (blank ones included)
	Records int64 // lines parsed
	Garbled int64 // lines that did not parse
	// FirstGarbled is the first such line, "FILE:LINE: why: line", its
	// tokens that may be secrets or account names masked.
	FirstGarbled string
}

// garbled counts a line that did not parse.
func (s *Stats) garbled(name string, n int64, line string, err error) {
	s.Garbled++
	if s.FirstGarbled == "" {
		s.FirstGarbled = fmt.Sprintf("%s:%d: %v: %s", name, n, err, Scrub(line, 200))
	}
}

// Scrub returns line cut to at most max bytes, with every token that may
// be an auth token or name an account masked as "***": tokens holding
// AUTH_ or a /v1/ path's account, and long opaque ones (a token, a key).
func Scrub(line string, max int) string {
	if len(line) > max {
		line = line[:max] + "..."
	}
	words := strings.Split(line, " ")
	for i, w := range words {
		words[i] = scrubWord(w)
	}
	return strings.Join(words, " ")
}

// scrubWord masks one space-separated token of a line.
func scrubWord(w string) string {
	if i := strings.Index(w, "/v1/"); i >= 0 {
		rest := w[i+len("/v1/"):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return w[:i] + "/v1/***" + rest[j:]
		}
		return w[:i] + "/v1/***"
	}
	if strings.Contains(w, "AUTH_") || strings.HasPrefix(w, "gAAAA") || opaque(w) {
		return "***"
	}
	return w
}

// opaque reports whether w looks like a token or key: 24 or more
// characters of letters and digits only, among them letters and digits.
func opaque(w string) bool {
	w = strings.TrimSuffix(w, "...")
	if len(w) < 24 {
		return false
	}
	var letters, digits bool
	for _, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		case c == '-' || c == '_':
		default:
			return false
		}
	}
	return letters && digits
}
