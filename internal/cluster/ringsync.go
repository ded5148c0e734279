package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"benchbed/plan"
	"benchbed/remote"
)

// SwiftDir is where rings and builders live.
const SwiftDir = "/etc/swift"

// BuildRings brings every ring's builder on host b to the layout l (the
// baseline variant's ports) and writes the ring files there.
func BuildRings(ctx context.Context, p *remote.Pool, tb *plan.Testbed, b *plan.Host, l *plan.Layout, rep *Summary) error {
	if _, err := p.Run(ctx, b.Name, "mkdir -p "+SwiftDir); err != nil {
		return err
	}
	for _, r := range tb.Rings {
		res, err := p.Run(ctx, b.Name, dumpScript(SwiftDir, r.Name))
		if err != nil {
			return fmt.Errorf("ring %s: reading the builder on %s: %w", r.Name, b.Name, err)
		}
		have, err := parseDump(string(res.Stdout))
		if err != nil {
			return fmt.Errorf("ring %s on %s: %w", r.Name, b.Name, err)
		}
		c, err := planRing(SwiftDir, r, have, layoutDevs(tb, l.Ring(r.Name)))
		if err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		if len(c.Commands) == 0 {
			continue
		}
		for _, x := range c.Changes {
			rep.Change(b.Name, "ring %s: %s", r.Name, x)
		}
		for _, cmd := range c.Commands {
			if err := runRingCmd(ctx, p, b.Name, r, cmd, rep); err != nil {
				return err
			}
		}
	}
	return nil
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
		out = append(out, path.Join(SwiftDir, r.Name+".ring.gz"))
	}
	return out
}

// DistributeRings copies the ring files from host b to every other host
// that runs a service; hosts that have them already are left alone.
func DistributeRings(ctx context.Context, p *remote.Pool, tb *plan.Testbed, b *plan.Host, rep *Summary) error {
	return DistributeRingFiles(ctx, p, tb, b, RingFiles(tb), rep)
}

// DistributeRingFiles is DistributeRings for the ring files rings only (a
// sweep's cell copies the rings it switched).
func DistributeRingFiles(ctx context.Context, p *remote.Pool, tb *plan.Testbed, b *plan.Host, rings []string, rep *Summary) error {
	dir, err := os.MkdirTemp("", "benchbed-rings-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	files := map[string][]byte{}
	for _, f := range rings {
		local := filepath.Join(dir, path.Base(f))
		if _, err := p.Download(ctx, b.Name, f, local); err != nil {
			return err
		}
		if files[f], err = os.ReadFile(local); err != nil {
			return err
		}
	}
	var targets []string
	for _, h := range ServiceHosts(tb) {
		if h.Name != b.Name {
			targets = append(targets, h.Name)
		}
	}
	sum := p.FanOut(ctx, targets, func(ctx context.Context, host string) error {
		for _, f := range rings {
			ch, err := p.Upload(ctx, host, remote.File{Path: f, Content: files[f], Mode: 0o644, Owner: "root", Group: "root"})
			if err != nil {
				return fmt.Errorf("%s: ring %s: %w", host, f, err)
			}
			if ch != remote.Unchanged {
				rep.Change(host, "ring %s from %s (%s)", path.Base(f), b.Name, ch)
			}
		}
		return nil
	})
	return sum.Err()
}

// runRingCmd runs one swift-ring-builder command on host. A rebalance that
// exits 1 (a warning: min_part_hours kept partitions in place, or nothing
// needed to move) is reported with swift-ring-builder's words, not an
// error; write_ring follows it anyway, and the next setup rebalances again
// while the builder has unbalanced device changes.
func runRingCmd(ctx context.Context, p *remote.Pool, host string, r *plan.Ring, cmd string, rep *Summary) error {
	res, err := p.Run(ctx, host, cmd+" 2>&1")
	var exit *remote.ExitError
	if err != nil && strings.HasSuffix(cmd, " rebalance") && errors.As(err, &exit) && exit.Code == 1 {
		rep.Change(host, "ring %s: rebalance warned (min_part_hours %d): %s", r.Name, r.MinPartHours, oneLine(res))
		return nil
	}
	if err != nil {
		// err names the host and the command; the output says why.
		return fmt.Errorf("ring %s: %w: %s", r.Name, err, oneLine(res))
	}
	return nil
}

// oneLine gives a command's output on one line, shortened.
func oneLine(res *remote.Result) string {
	if res == nil {
		return ""
	}
	s := strings.Join(strings.Fields(string(res.Stdout)), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
