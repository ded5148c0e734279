package secrets

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// Masked is what every secret is replaced by.
const Masked = "(sensitive)"

// MinLen is the shortest secret value searched for in free text: shorter
// ones would match inside ordinary words. Entries whose key names a secret
// are masked whatever their length.
const MinLen = 4

// tokens are Swift auth tokens as servers log them: tempauth's AUTH_tk...
// and Keystone's Fernet gAAAAA... (the proxy logs their first characters).
var tokens = regexp.MustCompile(`AUTH_tk[0-9a-fA-F]+|gAAAAA[0-9A-Za-z_=-]+`)

// Set masks a given list of secret values, and tokens. The zero value and
// a nil *Set mask tokens only.
type Set struct {
	values []string // with their JSON forms, longest first so that a secret inside another is not half-masked
}

// New returns the Set of values (those shorter than MinLen are dropped).
func New(values ...string) *Set {
	s := &Set{}
	seen := map[string]bool{}
	add := func(v string) {
		if len(v) >= MinLen && !seen[v] {
			seen[v] = true
			s.values = append(s.values, v)
		}
	}
	for _, v := range values {
		add(v)
		add(jsonForm(v))
	}
	sort.SliceStable(s.values, func(i, j int) bool { return len(s.values[i]) > len(s.values[j]) })
	return s
}

// jsonForm is v as it appears inside a JSON string.
func jsonForm(v string) string {
	q, err := json.Marshal(v)
	if err != nil {
		return v
	}
	return string(q[1 : len(q)-1])
}

// Len returns how many values s searches for (JSON forms included).
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.values)
}

// Mask replaces every secret value and every Swift token in text by Masked.
func (s *Set) Mask(text string) string {
	if s != nil {
		for _, v := range s.values {
			text = strings.ReplaceAll(text, v, Masked)
		}
	}
	return Tokens(text)
}

// Entry returns a conf entry's value as it may be printed: Masked when the
// entry is marked sensitive or its key names a secret, else the value with
// the secrets in it masked.
func (s *Set) Entry(section, key, value string, sensitive bool) string {
	if sensitive || Key(section, key) {
		return Masked
	}
	return s.Mask(value)
}

// Tokens replaces every Swift auth token in text by Masked.
func Tokens(text string) string {
	return tokens.ReplaceAllString(text, Masked)
}

// Key reports whether the key of a conf section (or, with section "", of a
// testbed attribute) names a secret whatever its value: *password*,
// *passwd*, *secret*, *key, *token, swift_hash_path_*, and tempauth's
// user_<account>_<user> = <key> <groups> in a filter section.
func Key(section, key string) bool {
	k := strings.ToLower(key)
	if strings.HasPrefix(section, "filter:") && strings.HasPrefix(k, "user_") {
		return true
	}
	for _, w := range []string{"password", "passwd", "secret"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return strings.HasPrefix(k, "swift_hash_path_") || strings.HasSuffix(k, "key") || strings.HasSuffix(k, "token")
}
