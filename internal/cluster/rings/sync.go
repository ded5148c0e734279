package rings

import (
	"benchbed/internal/cluster"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"benchbed/plan"
	"benchbed/remote"
)

// BuildRings brings every ring's builder on host b to the layout l (the
// baseline variant's ports) and writes the ring files there: the builders
// read in one Python process (DumpRings), every command of every ring run
// in one more (runRingCmds).
func BuildRings(ctx context.Context, p *remote.Pool, tb *plan.Testbed, b *plan.Host, l *plan.Layout, rep *cluster.Report) error {
	if _, err := p.Run(ctx, b.Name, "mkdir -p "+cluster.SwiftDir); err != nil {
		return err
	}
	states, err := DumpRings(ctx, p, tb, b.Name)
	if err != nil {
		return fmt.Errorf("reading the ring builders on %s: %w", b.Name, err)
	}
	var cmds []ringCmd
	changes := make([]*ringChange, len(tb.Rings))
	ends := make([]int, len(tb.Rings)) // each ring's commands end before this index
	for i, r := range tb.Rings {
		if changes[i], err = planRing(cluster.SwiftDir, r, states[i], layoutDevs(tb, l.Ring(r.Name))); err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		for _, a := range changes[i].Args {
			cmds = append(cmds, ringCmd{ring: r, args: a})
		}
		ends[i] = len(cmds)
	}
	done, err := runRingCmds(ctx, p, b.Name, cmds, rep)
	for i, r := range tb.Rings { // the rings whose every command ran
		if ends[i] <= done {
			for _, x := range changes[i].Changes {
				rep.Change(b.Name, "ring %s: %s", r.Name, x)
			}
		}
	}
	return err
}

// layoutDevs turns a ring layout into wanted devices: region 1, one zone
// per host in declaration order.
func layoutDevs(tb *plan.Testbed, rl *plan.RingLayout) []ringDev {
	if rl == nil {
		return nil
	}
	zones := map[string]int{}
	var devs []ringDev
	for _, d := range rl.Devices {
		if _, ok := zones[d.Host]; !ok {
			zones[d.Host] = len(zones) + 1
		}
		devs = append(devs, ringDev{ID: -1, Region: 1, Zone: zones[d.Host], IP: d.IP, Port: d.Port,
			Device: d.Name, Weight: d.Weight, Host: d.Host})
	}
	return devs
}

// RingFiles names the ring files of tb's rings.
func RingFiles(tb *plan.Testbed) []string {
	var out []string
	for _, r := range tb.Rings {
		out = append(out, path.Join(cluster.SwiftDir, r.Name+".ring.gz"))
	}
	return out
}

// DistributeRings copies the ring files from host b to every other host
// that runs a service; hosts that have them already are left alone.
func DistributeRings(ctx context.Context, p Hosts, tb *plan.Testbed, b *plan.Host, rep *cluster.Report) error {
	return DistributeRingFiles(ctx, p, tb, b, RingFiles(tb), rep)
}

// DistributeRingFiles is DistributeRings for the ring files rings only (a
// sweep's cell copies the rings it switched).
func DistributeRingFiles(ctx context.Context, p Hosts, tb *plan.Testbed, b *plan.Host, rings []string, rep *cluster.Report) error {
	dir, err := os.MkdirTemp("", "benchbed-rings-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var files []remote.File
	for _, f := range rings {
		local := filepath.Join(dir, path.Base(f))
		if _, err := p.Download(ctx, b.Name, f, local); err != nil {
			return err
		}
		content, err := os.ReadFile(local)
		if err != nil {
			return err
		}
		files = append(files, remote.File{Path: f, Content: content, Mode: 0o644, Owner: "root", Group: "root"})
	}
	return PushRingFiles(ctx, p, tb, b, files, rep)
}

// PushRingFiles uploads ring files to every host that runs a service but
// b, the builder host they come from; rep says where one changed.
func PushRingFiles(ctx context.Context, p Hosts, tb *plan.Testbed, b *plan.Host, files []remote.File, rep *cluster.Report) error {
	var targets []string
	for _, h := range cluster.ServiceHosts(tb) {
		if h.Name != b.Name {
			targets = append(targets, h.Name)
		}
	}
	sum := p.FanOut(ctx, targets, func(ctx context.Context, host string) error {
		chs, err := p.UploadAll(ctx, host, files)
		for i, ch := range chs {
			if ch != remote.Unchanged {
				rep.Change(host, "ring %s from %s (%s)", path.Base(files[i].Path), b.Name, ch)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: rings: %w", host, err)
		}
		return nil
	})
	return sum.Err()
}
