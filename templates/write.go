package templates

import (
	"bytes"
	"strings"

	"benchbed/templates/secrets"
)

// Bytes gives the file as it is written for a host: every value in clear.
func (f *File) Bytes() []byte { return f.write(nil, false) }

// Masked gives the file for printing: values of sensitive entries and of
// keys that name secrets (secrets.Key), every value of s and every token
// read secrets.Masked. A nil s masks by key and token only.
func (f *File) Masked(s *secrets.Set) []byte { return f.write(s, true) }

func (f *File) write(m *secrets.Set, mask bool) []byte {
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
			if mask {
				v = m.Entry(s.Name, e.Key, e.Value, e.Sensitive)
			}
			b.WriteString(e.Key + " = " + strings.ReplaceAll(v, "\n", "\n    ") + "\n")
		}
	}
	lines(&b, f.Tail)
	if mask {
		return []byte(m.Mask(b.String()))
	}
	return b.Bytes()
}

func lines(b *bytes.Buffer, ls []string) {
	for _, l := range ls {
		b.WriteString(l + "\n")
	}
}
