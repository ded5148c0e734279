package render

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"benchbed/templates/secrets"
)

// WriteDir writes every conf to dir/<host>/<absolute path> (mode 0600: the
// files hold secrets in clear, as the hosts need them) and the ring layout
// to dir/ring-layout.txt. It returns the paths written.
func (r *Rendering) WriteDir(dir string) ([]string, error) { return r.write(dir, nil, false) }

// WriteMasked is WriteDir with sensitive values masked by m (a nil m masks
// by key and token only): for run directories, which must never hold a
// secret.
func (r *Rendering) WriteMasked(dir string, m *secrets.Set) ([]string, error) {
	return r.write(dir, m, true)
}

func (r *Rendering) write(dir string, m *secrets.Set, mask bool) ([]string, error) {
	var written []string
	for _, c := range r.Confs {
		p, err := outPath(dir, c.Host.Name, c.Path)
		if err != nil {
			return written, err
		}
		data := c.File.Bytes()
		if mask {
			data = c.File.Masked(m)
		}
		if err := writeFile(p, data); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	for _, c := range r.Generic {
		p, err := outPath(dir, c.Host.Name, c.Path)
		if err != nil {
			return written, err
		}
		data := c.Content
		if mask {
			data = []byte(m.Conf(string(data)))
		}
		if err := writeFile(p, data); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	p := filepath.Join(dir, LayoutFile)
	if err := writeFile(p, []byte(LayoutText(r.Layout))); err != nil {
		return written, err
	}
	return append(written, p), nil
}

// outPath is where host's file at path goes under dir.
func outPath(dir, host, path string) (string, error) {
	rel := filepath.FromSlash(strings.TrimPrefix(path, "/"))
	if rel == "" || strings.HasPrefix(filepath.Clean(rel), "..") {
		return "", fmt.Errorf("host %s: path %q escapes the output directory", host, path)
	}
	return filepath.Join(dir, host, rel), nil
}

// writeFile writes data to p through a temporary file and a rename.
func writeFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".render-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
