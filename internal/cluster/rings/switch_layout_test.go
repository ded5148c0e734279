package rings

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/remote"
)

// dirHosts is dirRunner with uploads, downloads and a fan-out: the
// builder host's /etc/swift is dir, every other host's dir/hosts/NAME.
type dirHosts struct {
	dirRunner
	builder string
}

func (h dirHosts) local(host, p string) string {
	root := h.dir
	if host != h.builder {
		root = filepath.Join(h.dir, "hosts", host)
	}
	return filepath.Join(root, strings.TrimPrefix(p, cluster.SwiftDir+"/"))
}

func (h dirHosts) UploadAll(_ context.Context, host string, files []remote.File) ([]remote.Change, error) {
	var chs []remote.Change
	for _, f := range files {
		p := h.local(host, f.Path)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, f.Content) {
			chs = append(chs, remote.Unchanged)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return chs, err
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			return chs, err
		}
		chs = append(chs, remote.Written)
	}
	return chs, nil
}

func (h dirHosts) Download(_ context.Context, host, remotePath, localPath string) (int64, error) {
	b, err := os.ReadFile(h.local(host, remotePath))
	if err != nil {
		return 0, err
	}
	return int64(len(b)), os.WriteFile(localPath, b, 0o644)
}

func (h dirHosts) FanOut(ctx context.Context, hosts []string, fn func(ctx context.Context, host string) error) *remote.Outcomes {
	return remote.FanOut(ctx, 4, hosts, fn)
}

// TestSwitchLayoutFallsBackOnFilesItDoesNotKnow: a cell switches the lab's
// object ring from the prepared files (Ahead) and pushes its ring file to
// every other service host; once the builder host's object builder is
// changed by hand after the preparation (its min_part_hours), its files
// are none the sweep knows, so the next cell's switch does not upload
// prepared files over them but dumps the ring and switches it in place
// (not Ahead), to the testbed's ring: min_part_hours back to the declared
// 0 and the ports normal wants, the switched ring file on every other
// host.
func TestSwitchLayoutFallsBackOnFilesItDoesNotKnow(t *testing.T) {
	dir := t.TempDir()
	tb, layouts := labRings(t, dir)
	b, err := tb.BuilderHost()
	if err != nil {
		t.Fatal(err)
	}
	hosts := dirHosts{dirRunner{dir}, b.Name}
	ctx := context.Background()
	prep, err := PrepareLayouts(ctx, hosts, tb, b.Name, layouts)
	if err != nil {
		t.Fatal(err)
	}
	rep := cluster.NewReport(cluster.Names(tb.Hosts))
	out, err := SwitchLayout(ctx, hosts, tb, b, layouts[1], prep, rep)
	if err != nil || len(out) != 1 || out[0].Ring.Name != "object" || !out[0].Ahead {
		t.Fatalf("servers_per_port=1: %+v, %v; want the object ring from the prepared files", out, err)
	}
	others := sameRingEverywhere(t, hosts, tb, rep)
	srb(t, dir, "object.builder", "198.18.0.22:6213") // servers_per_port=1's port of d3
	if out, err := exec.Command("swift-ring-builder", filepath.Join(dir, "object.builder"), "set_min_part_hours", "3").CombinedOutput(); err != nil {
		t.Fatalf("set_min_part_hours: %v\n%s", err, out)
	}
	rep = cluster.NewReport(cluster.Names(tb.Hosts))
	out, err = SwitchLayout(ctx, hosts, tb, b, layouts[0], prep, rep)
	if err != nil || len(out) != 1 || out[0].Ahead {
		t.Fatalf("normal after a change by hand: %+v, %v; want the object ring switched in place", out, err)
	}
	changes := strings.Join(out[0].Changes, "\n")
	if len(out[0].Changes) != 9 || out[0].Changes[0] != "min_part_hours 3 -> 0" || strings.Count(changes, " -> 6200") != 8 {
		t.Errorf("normal after a change by hand: %q; want min_part_hours back to the testbed's and the 8 ports to 6200", out[0].Changes)
	}
	srb(t, dir, "object.builder", "198.18.0.22:6200")
	if got := sameRingEverywhere(t, hosts, tb, rep); got != others {
		t.Errorf("ring pushed to %d hosts, then %d", others, got)
	}
}

// srb returns swift-ring-builder's view of file in dir, failing unless it
// contains want.
func srb(t *testing.T, dir, file, want string) string {
	t.Helper()
	show, err := exec.Command("swift-ring-builder", filepath.Join(dir, file)).CombinedOutput()
	if err != nil || !strings.Contains(string(show), want) {
		t.Errorf("%s (%v) without %q:\n%s", file, err, want, show)
		return ""
	}
	return string(show)
}

// sameRingEverywhere checks that every service host but the builder holds
// the builder host's object ring file and that rep says each got it, and
// returns how many hosts those are.
func sameRingEverywhere(t *testing.T, h dirHosts, tb *plan.Testbed, rep *cluster.Report) int {
	t.Helper()
	want := readFile(t, filepath.Join(h.dir, "object.ring.gz"))
	n := 0
	for _, host := range cluster.ServiceHosts(tb) {
		if host.Name == h.builder {
			continue
		}
		if got := readFile(t, h.local(host.Name, cluster.SwiftDir+"/object.ring.gz")); !bytes.Equal(got, want) {
			t.Errorf("%s: another object ring than the builder host's", host.Name)
		}
		if !strings.Contains(strings.Join(rep.Changes(host.Name), "\n"), "ring object.ring.gz from ") {
			t.Errorf("%s: the summary says %q", host.Name, rep.Changes(host.Name))
		}
		n++
	}
	return n
}
