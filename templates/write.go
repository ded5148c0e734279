package templates

import (
	"bytes"
	"sort"
	"strings"
)

// Mask replaces a sensitive value in everything benchbed prints (the same
// text as plan.Masked).
const Mask = "(sensitive)"

// Bytes gives the file as it is written for a host: every value in clear.
func (f *File) Bytes() []byte { return f.write(nil) }

// Masked gives the file for printing: values of sensitive entries, of keys
// that name secrets (see SensitiveKey) and every occurrence of secrets are
// replaced by Mask.
func (f *File) Masked(secrets []string) []byte { return f.write(NewMasker(secrets)) }

func (f *File) write(m *Masker) []byte {
	var b bytes.Buffer
	lines(&b, f.Head)
	for _, s := range f.Sections {
		if len(s.Comments) == 0 && b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte("\n\n")) {
			b.WriteByte('\n')
		}
		lines(&b, s.Comments)
		b.WriteString("[" + s.Name + "]\n")
		for _, e := range s.Entries {
			lines(&b, e.Comments)
			v := e.Value
			if m != nil {
				v = m.Entry(s.Name, e)
			}
			b.WriteString(e.Key + " = " + strings.ReplaceAll(v, "\n", "\n    ") + "\n")
		}
	}
	lines(&b, f.Tail)
	if m != nil {
		return []byte(m.Text(b.String()))
	}
	return b.Bytes()
}

func lines(b *bytes.Buffer, ls []string) {
	for _, l := range ls {
		b.WriteString(l + "\n")
	}
}

// SensitiveKey reports whether a key of section names a secret whatever its
// source: tempauth users, keys, passwords, tokens, the hash path salts.
func SensitiveKey(section, key string) bool {
	k := strings.ToLower(key)
	if strings.HasPrefix(section, "filter:") && strings.HasPrefix(k, "user_") {
		return true // tempauth: user_<account>_<user> = <key> <groups>
	}
	if strings.Contains(k, "password") || strings.Contains(k, "secret") || strings.HasPrefix(k, "swift_hash_path_") {
		return true
	}
	return strings.HasSuffix(k, "key") || strings.HasSuffix(k, "token")
}

// Masker hides sensitive values in printed text.
type Masker struct {
	secrets []string // longest first, so that a secret inside another is not half-masked
}

// MinSecretLen is the shortest secret a Masker searches for in free text
// (as plan.MinMaskLen): shorter ones would match inside ordinary words.
// Sensitive entries are masked whatever their length.
const MinSecretLen = 4

// NewMasker returns a Masker for the given secret values (those shorter
// than MinSecretLen are not searched in free text).
func NewMasker(secrets []string) *Masker {
	m := &Masker{}
	for _, s := range secrets {
		if len(s) >= MinSecretLen {
			m.secrets = append(m.secrets, s)
		}
	}
	sort.Slice(m.secrets, func(i, j int) bool { return len(m.secrets[i]) > len(m.secrets[j]) })
	return m
}

// Secrets returns the secrets m masks.
func (m *Masker) Secrets() []string {
	if m == nil {
		return nil
	}
	return m.secrets
}

// Entry returns e's value as it may be printed.
func (m *Masker) Entry(section string, e *Entry) string {
	if m == nil {
		m = &Masker{}
	}
	if e.Sensitive || SensitiveKey(section, e.Key) {
		return Mask
	}
	return m.Text(e.Value)
}

// Text replaces every secret in s by Mask.
func (m *Masker) Text(s string) string {
	if m == nil {
		return s
	}
	for _, sec := range m.secrets {
		s = strings.ReplaceAll(s, sec, Mask)
	}
	return s
}
