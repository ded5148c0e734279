package cluster

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"benchbed/plan/render"
	"benchbed/remote"
)

// confMode is the mode of pushed confs: they may hold tempauth keys, so
// only root and the swift group read them.
const confMode = 0o640

// PushConfs places host's rendered confs and returns the paths whose
// content changed.
func PushConfs(ctx context.Context, p *remote.Pool, r *render.Rendering, host string, rep *Report) ([]string, error) {
	var dirs []string
	var confs []*render.Conf
	for _, c := range r.Confs {
		if c.Host.Name == host {
			confs = append(confs, c)
			dirs = append(dirs, remote.Quote(path.Dir(c.Path)))
		}
	}
	if len(confs) == 0 {
		return nil, nil
	}
	sort.Strings(dirs)
	if _, err := p.Run(ctx, host, "mkdir -p "+strings.Join(dirs, " ")); err != nil {
		return nil, err
	}
	var written []string
	for _, c := range confs {
		ch, err := p.Upload(ctx, host, remote.File{Path: c.Path, Content: c.File.Bytes(), Mode: confMode,
			Owner: "root", Group: "swift"})
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", host, c.Path, err)
		}
		switch ch {
		case remote.Written:
			written = append(written, c.Path)
			rep.Change(host, "wrote %s", c.Path)
		case remote.AttrsOnly:
			rep.Change(host, "fixed mode/owner of %s", c.Path)
		}
	}
	return written, nil
}
