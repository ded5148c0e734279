package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"benchbed/plan/render"
	"benchbed/remote"
	"benchbed/templates"
)

// The swift-hash keys of swift.conf, and the placeholders of the built-in
// template that setup replaces with generated values.
const (
	hashSection = "swift-hash"
	hashSuffix  = "swift_hash_path_suffix"
	hashPrefix  = "swift_hash_path_prefix"
)

var hashPlaceholders = map[string]string{hashSuffix: "benchbed-suffix", hashPrefix: "benchbed-prefix"}

// Hashes are the swift.conf hash path prefix and suffix of a cluster.
type Hashes map[string]string

// ReadHashes reads the hash prefix and suffix of host's swift.conf (empty
// when it has none). The file comes over SFTP, not a command's output, so
// that the values never reach the pool's live output.
func ReadHashes(ctx context.Context, p *remote.Pool, host string) (Hashes, error) {
	if _, err := p.Run(ctx, host, "test -f "+render.SwiftConfPath); err != nil {
		var exit *remote.ExitError
		if errors.As(err, &exit) {
			return Hashes{}, nil
		}
		return nil, err
	}
	dir, err := os.MkdirTemp("", "benchbed-swiftconf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	local := filepath.Join(dir, "swift.conf")
	if _, err := p.Download(ctx, host, render.SwiftConfPath, local); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(local)
	if err != nil {
		return nil, err
	}
	f, err := templates.Parse(host+":"+render.SwiftConfPath, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", host, err)
	}
	h := Hashes{}
	for k := range hashPlaceholders {
		if v, ok := f.Value(hashSection, k); ok && v != "" {
			h[k] = v
		}
	}
	return h, nil
}

// ChooseHashes decides the cluster's hashes: those the builder host already
// has (never changed once data exists: a testbed that sets other ones is an
// error), else the testbed's own, else new random ones for a template
// placeholder.
func ChooseHashes(have Hashes, rendered *templates.File, host string) (Hashes, bool, error) {
	out, generated := Hashes{}, false
	for k, placeholder := range hashPlaceholders {
		want, _ := rendered.Value(hashSection, k)
		switch {
		case have[k] != "":
			if want != "" && want != placeholder && want != have[k] {
				return nil, false, fmt.Errorf("%s: swift.conf has another %s than the testbed sets; Swift cannot change it once data exists", host, k)
			}
			out[k] = have[k]
		case want != "" && want != placeholder:
			out[k] = want
		default:
			b := make([]byte, 16)
			if _, err := rand.Read(b); err != nil {
				return nil, false, err
			}
			out[k] = hex.EncodeToString(b)
			generated = true
		}
	}
	return out, generated, nil
}

// Apply sets the hashes in a rendered swift.conf, marked sensitive.
func (h Hashes) Apply(f *templates.File) {
	for k, v := range h {
		f.Set(hashSection, k, templates.Value{Value: v, Sensitive: true,
			Source: templates.Source{Layer: "setup"}})
	}
}

// Values lists the hash values, to mask in output.
func (h Hashes) Values() []string {
	var out []string
	for _, v := range h {
		out = append(out, v)
	}
	return out
}
