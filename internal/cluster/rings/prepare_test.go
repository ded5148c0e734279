package rings

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/remote"
)

// dirRunner runs a host's commands on this machine with /etc/swift
// replaced by dir: the rings' scripts on real builders in a temporary
// directory.
type dirRunner struct{ dir string }

func (r dirRunner) Run(_ context.Context, _ string, cmd string) (*remote.Result, error) {
	var out, errOut bytes.Buffer
	c := exec.Command("bash", "-c", strings.ReplaceAll(cmd, "/etc/swift", r.dir))
	c.Stdout, c.Stderr = &out, &errOut
	err := c.Run()
	return &remote.Result{Stdout: out.Bytes(), Stderr: errOut.Bytes()}, err
}

func (r dirRunner) FanOut(ctx context.Context, hosts []string, fn func(ctx context.Context, host string) error) *remote.Outcomes {
	panic("not used")
}

// labRings makes the lab testbed's three rings in dir, as setup makes them
// for its first variant, and returns the testbed and its variants'
// layouts (normal, servers_per_port=1 and =2).
func labRings(t *testing.T, dir string) (*plan.Testbed, []*plan.Layout) {
	t.Helper()
	labtest.NeedTools(t, "swift-ring-builder", "/usr/bin/python3")
	tb := labtest.Testbed(t, "lab/lab.hcl")
	var layouts []*plan.Layout
	for _, v := range []string{"normal", "servers_per_port=1", "servers_per_port=2"} {
		l, err := tb.Layout(tb.Variant(v))
		if err != nil {
			t.Fatal(err)
		}
		layouts = append(layouts, l)
	}
	var cmds [][]string // every ring's, in one Python process
	for _, r := range tb.Rings {
		c, err := planRing(dir, r, nil, layoutDevs(tb, layouts[0].Ring(r.Name)))
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c.Args...)
	}
	srbOnce(t, cmds...)
	return tb, layouts
}

// TestPrepareLayoutsSwitchesWithoutPython: on real builders, the lab's
// object ring (the only one with a port per disk) is prepared for its
// variants, the container and account rings are not (no layout changes
// them); switching by the prepared files gives the ports the variant wants
// and the same files as the in-place switch (switchPortsScript), the
// servers_per_port=2 cell after =1 finds nothing to do, normal goes back to
// the files found, and files that neither setup nor a layout wrote are
// unknown (the cell then switches in place).
func TestPrepareLayoutsSwitchesWithoutPython(t *testing.T) {
	dir := t.TempDir()
	tb, layouts := labRings(t, dir)
	run := dirRunner{dir}
	ctx := context.Background()
	prep, err := PrepareLayouts(ctx, run, tb, "proxy1", layouts)
	if err != nil {
		t.Fatal(err)
	}
	if len(prep.Rings) != 1 || prep.Rings["object"] == nil {
		t.Fatalf("prepared rings %v, want only object", prep.Rings)
	}
	obj := prep.Rings["object"]
	normal, spp1, spp2 := LayoutKey(tb, layouts[0]), LayoutKey(tb, layouts[1]), LayoutKey(tb, layouts[2])
	if spp1 != spp2 || normal == spp1 {
		t.Fatalf("layout keys normal %s, spp=1 %s, spp=2 %s: want spp=1 and 2 the same, normal another", normal, spp1, spp2)
	}
	live := liveOf(t, run, obj)
	if live != obj.Found.Sums {
		t.Fatalf("live %v, found %v", live, obj.Found.Sums)
	}
	if to, _, ok := obj.Switch(live, normal); !ok || to != nil {
		t.Fatalf("normal from the found files: %v %v, want nothing to do", to, ok)
	}
	to, changes, ok := obj.Switch(live, spp1)
	if !ok || to == nil || len(changes) != 8 || !strings.HasPrefix(changes[0], "port of 198.18.0.21/d0 6200 -> ") {
		t.Fatalf("servers_per_port=1: %v %q", ok, changes)
	}
	// The in-place switch of a copy of the found files gives the same bytes.
	cp := t.TempDir()
	copyFile(t, obj.BuilderPath, dir, cp)
	copyFile(t, obj.RingPath, dir, cp)
	ports := map[string]int{}
	for _, d := range layoutDevs(tb, layouts[1].Ring("object")) {
		ports[d.Key()] = d.Port
	}
	if out, err := exec.Command("bash", "-c", switchPortsScript(filepath.Join(cp, "object.builder"), filepath.Join(cp, "object.ring.gz"), ports)).CombinedOutput(); err != nil {
		t.Fatalf("in-place switch: %v\n%s", err, out)
	}
	if !bytes.Equal(readFile(t, filepath.Join(cp, "object.ring.gz")), to.Ring) || !bytes.Equal(readFile(t, filepath.Join(cp, "object.builder")), to.Builder) {
		t.Errorf("the prepared files differ from the in-place switch's")
	}
	write(t, dir, obj, to)
	live = liveOf(t, run, obj)
	if to2, _, ok := obj.Switch(live, spp2); !ok || to2 != nil {
		t.Errorf("servers_per_port=2 after =1: %v %v, want nothing to do", to2, ok)
	}
	back, changes, ok := obj.Switch(live, normal)
	if !ok || back != &obj.Found || len(changes) != 8 || !strings.HasSuffix(changes[0], " -> 6200") {
		t.Errorf("normal after servers_per_port=1: %v %q, want the found files back", ok, changes)
	}
	show, err := exec.Command("swift-ring-builder", filepath.Join(dir, "object.builder")).CombinedOutput()
	if err != nil || !strings.Contains(string(show), "198.18.0.21:6211") || !strings.Contains(string(show), "is up-to-date") {
		t.Errorf("the prepared builder (%v):\n%s", err, show)
	}
	if _, _, ok := obj.Switch(FileSums{Builder: "other", Ring: live.Ring}, normal); ok {
		t.Errorf("files the sweep does not know were taken for known")
	}
}

func liveOf(t *testing.T, run dirRunner, p *PreparedRing) FileSums {
	t.Helper()
	live, err := LiveFiles(context.Background(), run, "proxy1", []*PreparedRing{p})
	if err != nil {
		t.Fatal(err)
	}
	return live[0]
}

// write puts layout files f in place of p's files in dir, as the sweep's
// upload does on the builder host.
func write(t *testing.T, dir string, p *PreparedRing, f *LayoutFiles) {
	t.Helper()
	for path, b := range map[string][]byte{p.BuilderPath: f.Builder, p.RingPath: f.Ring} {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(path)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func copyFile(t *testing.T, path, from, to string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(to, filepath.Base(path)), readFile(t, filepath.Join(from, filepath.Base(path))), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
