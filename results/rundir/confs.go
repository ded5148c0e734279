package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Conf names a conf a cell recorded: its host and absolute path.
type Conf struct{ Host, Path string }

// ReadConfs reads the confs a cell's directory recorded,
// confs/<host>/<abs path>, by host and path (files directly in confs/,
// such as the ring layout that ring-ports.txt repeats, are skipped).
func ReadConfs(cellDir string) (map[Conf][]byte, error) {
	dir := filepath.Join(cellDir, ConfsDir)
	out := map[Conf][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		host, path, ok := strings.Cut(filepath.ToSlash(rel), "/")
		if e.IsDir() || !ok || !e.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[Conf{host, "/" + path}] = b
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no confs recorded", dir)
	}
	return out, err
}
