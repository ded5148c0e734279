package rundir

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// envSuffix ends a host's environment file, env/<host>.txt.
const envSuffix = ".txt"

// HostEnv is one host's recorded environment.
type HostEnv struct {
	Host string
	Text string
}

// WriteEnv records host's environment as env/<host>.txt.
func (r *Run) WriteEnv(host string, text []byte) error {
	return r.WriteFile(path.Join(EnvDir, SafeName(host)+envSuffix), text)
}

// ReadEnv reads the hosts' environments of the run in dir, by host name;
// a run without them has none. It returns what it read before an error.
func ReadEnv(dir string) ([]HostEnv, error) {
	ents, err := os.ReadDir(filepath.Join(dir, EnvDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []HostEnv
	for _, e := range ents {
		host, ok := strings.CutSuffix(e.Name(), envSuffix)
		if !ok || e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, EnvDir, e.Name()))
		if err != nil {
			return out, err
		}
		out = append(out, HostEnv{Host: host, Text: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Host < out[j].Host })
	return out, nil
}
