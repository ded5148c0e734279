package rings

import (
	"context"
	"fmt"
	"path"
	"sync"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/remote"
)

// Switched is one ring whose ports a switch changed.
type Switched struct {
	Ring    *plan.Ring
	Changes []string // the port changes, as setup's summary words them
	Ahead   bool     // from the files PrepareLayouts made
}

// Hosts is what a ring switch and the rings' distribution need of the
// hosts: commands, a fan-out, uploads and downloads (a *remote.Pool; a
// test gives directories of this machine).
type Hosts interface {
	cluster.Runner
	UploadAll(ctx context.Context, host string, files []remote.File) ([]remote.Change, error)
	Download(ctx context.Context, host, remotePath, localPath string) (int64, error)
}

var _ Hosts = (*remote.Pool)(nil)

// SwitchLayout brings every ring's device ports to layout l on the builder
// host b without a rebalance and distributes the ring files it changed to
// every other service host (rep says where). With prep (nil: none) and
// the builder host's files in a state it knows, the files it made are
// uploaded (switchPrepared); else every ring is dumped and switched in
// place, side by side (SwitchRingPorts). A ring that differs in more than
// ports, or whose switch would move partitions, is refused.
func SwitchLayout(ctx context.Context, p Hosts, tb *plan.Testbed, b *plan.Host, l *plan.Layout, prep *Prepared, rep *cluster.Report) ([]Switched, error) {
	if prep != nil {
		if out, done, err := switchPrepared(ctx, p, tb, b, LayoutKey(tb, l), prep, rep); done {
			return out, err
		}
	}
	states, err := DumpRings(ctx, p, tb, b.Name)
	if err != nil {
		return nil, fmt.Errorf("rings on %s: %w", b.Name, err)
	}
	outs := switchAllRings(ctx, len(tb.Rings), func(ctx context.Context, i int) ([]string, bool, error) {
		return SwitchRingPorts(ctx, p, tb, b.Name, tb.Rings[i], l, states[i])
	})
	var out []Switched
	var files []string
	for i, r := range tb.Rings {
		if err := outs[i].err; err != nil {
			return out, fmt.Errorf("ring %s on %s: %w", r.Name, b.Name, err)
		}
		if outs[i].switched {
			out = append(out, Switched{Ring: r, Changes: outs[i].changes})
			files = append(files, path.Join(cluster.SwiftDir, r.Name+".ring.gz"))
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	return out, DistributeRingFiles(ctx, p, tb, b, files, rep)
}

// switchPrepared brings the rings to layout key from prep's files: one
// sha256sum of the builder host's builders and rings, then the files of
// the rings that differ uploaded there (first: were a push to another host
// to fail, its files still say what the hosts should hold) and the ring
// files to every other service host. done is false when a ring's files on
// the builder host are none of those prep knows (something else changed
// them) or the layout was not prepared.
func switchPrepared(ctx context.Context, p Hosts, tb *plan.Testbed, b *plan.Host, key string, prep *Prepared, rep *cluster.Report) (out []Switched, done bool, err error) {
	var list []*PreparedRing
	var of []*plan.Ring
	for _, r := range tb.Rings {
		if pr := prep.Rings[r.Name]; pr != nil {
			list, of = append(list, pr), append(of, r)
		}
	}
	if len(list) == 0 {
		return nil, false, nil
	}
	live, err := LiveFiles(ctx, p, b.Name, list)
	if err != nil {
		return nil, true, fmt.Errorf("rings on %s: %w", b.Name, err)
	}
	var files, ringFiles []remote.File
	for i, pr := range list {
		to, changes, ok := pr.Switch(live[i], key)
		if !ok {
			return nil, false, nil
		}
		if to != nil {
			// Mode and owner unset: the existing files' are kept.
			files = append(files, remote.File{Path: pr.BuilderPath, Content: to.Builder}, remote.File{Path: pr.RingPath, Content: to.Ring})
			ringFiles = append(ringFiles, remote.File{Path: pr.RingPath, Content: to.Ring})
			out = append(out, Switched{Ring: of[i], Changes: changes, Ahead: true})
		}
	}
	if len(files) == 0 {
		return nil, true, nil
	}
	if _, err := p.UploadAll(ctx, b.Name, files); err != nil {
		return out, true, fmt.Errorf("rings on %s: %w", b.Name, err)
	}
	return out, true, PushRingFiles(ctx, p, tb, b, ringFiles, rep)
}

// ringSwitch is one ring's port switch's outcome.
type ringSwitch struct {
	changes  []string
	switched bool
	err      error
}

// switchAllRings runs the n rings' port switches side by side (each is a
// Python process on the builder host, on its own ring's files) and
// returns their outcomes in the rings' order.
func switchAllRings(ctx context.Context, n int, fn func(ctx context.Context, i int) ([]string, bool, error)) []ringSwitch {
	outs := make([]ringSwitch, n)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := &outs[i]
			o.changes, o.switched, o.err = fn(ctx, i)
		}()
	}
	wg.Wait()
	return outs
}
