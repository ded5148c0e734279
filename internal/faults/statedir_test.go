package faults

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
)

// prelude runs statePrelude(parent, dir, old) for fault id f0-h1 and then
// prints $state, returning the output and whether it exited 0.
func prelude(t *testing.T, parent, dir, old string) (string, bool) {
	t.Helper()
	sc := "host=h1\nid=f0-h1\n" + statePrelude(parent, dir, old) + `echo "state=$state"` + "\n"
	out, err := exec.Command("sh", "-c", sc).CombinedOutput()
	return string(out), err == nil
}

func TestStatePreludeMakesPrivateDirs(t *testing.T) {
	tmp := t.TempDir()
	parent, dir := filepath.Join(tmp, "benchbed"), filepath.Join(tmp, "benchbed", "faults")
	out, ok := prelude(t, parent, dir, "")
	if !ok || !strings.Contains(out, "state="+dir+"/f0-h1") {
		t.Fatalf("fresh dirs: ok=%v %s", ok, out)
	}
	must0700(t, parent)
	must0700(t, dir)
	// An own directory of another mode is made 0700 again.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, ok := prelude(t, parent, dir, ""); !ok {
		t.Fatalf("own 0755 dir refused: %s", out)
	}
	must0700(t, dir)
}

func must0700(t *testing.T, d string) {
	t.Helper()
	fi, err := os.Lstat(d)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: %v %v, want a 0700 directory", d, fi.Mode(), err)
	}
}

func TestStatePreludeRefusesPlantedPaths(t *testing.T) {
	tmp := t.TempDir()
	elsewhere := filepath.Join(tmp, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o777); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(parent, dir string) error{
		"dir a symlink":    func(p, d string) error { return firstErr(os.Mkdir(p, 0o700), os.Symlink(elsewhere, d)) },
		"parent a symlink": func(p, d string) error { return os.Symlink(elsewhere, p) },
		"dir a file":       func(p, d string) error { return firstErr(os.Mkdir(p, 0o700), os.WriteFile(d, nil, 0o600)) },
	}
	if os.Geteuid() == 0 {
		cases["dir another user's"] = func(p, d string) error {
			return firstErr(os.Mkdir(p, 0o700), os.Mkdir(d, 0o700), os.Chown(d, 65534, 65534))
		}
		cases["parent another user's"] = func(p, d string) error { return firstErr(os.Mkdir(p, 0o700), os.Chown(p, 65534, 65534)) }
	} else {
		t.Log("not root: the other-owner cases need chown and are not run")
	}
	for name, plant := range cases {
		root := filepath.Join(tmp, strings.ReplaceAll(name, " ", "_"))
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
		parent, dir := filepath.Join(root, "benchbed"), filepath.Join(root, "benchbed", "faults")
		if err := plant(parent, dir); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, ok := prelude(t, parent, dir, "")
		if ok || !strings.Contains(out, "h1: fault state: ") || !strings.Contains(out, "not benchbed's own directory") {
			t.Errorf("%s: ok=%v, want refused naming host and path:\n%s", name, ok, out)
		}
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("something was made through a planted symlink: %v", ents)
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func TestStatePreludeFindsOldState(t *testing.T) {
	tmp := t.TempDir()
	parent, dir, old := filepath.Join(tmp, "benchbed"), filepath.Join(tmp, "benchbed", "faults"), filepath.Join(tmp, "benchbed-faults")
	if out, _ := prelude(t, parent, dir, old); !strings.Contains(out, "state="+dir+"/f0-h1\n") {
		t.Errorf("no old dir: %s", out)
	}
	if err := os.Mkdir(old, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, _ := prelude(t, parent, dir, old); !strings.Contains(out, "state="+dir+"/f0-h1\n") {
		t.Errorf("old dir without the fault's files: %s", out)
	}
	if err := os.WriteFile(filepath.Join(old, "f0-h1.procs"), []byte("1 /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := prelude(t, parent, dir, old); !strings.Contains(out, "state="+old+"/f0-h1\n") {
		t.Errorf("the fault's old state is not used: %s", out)
	}
	if out, _ := prelude(t, parent, dir, ""); !strings.Contains(out, "state="+dir+"/f0-h1\n") {
		t.Errorf("apply uses the old state: %s", out)
	}
	// An old place that is a symlink is not followed.
	link := filepath.Join(tmp, "link-faults")
	if err := os.Symlink(old, link); err != nil {
		t.Fatal(err)
	}
	if out, _ := prelude(t, parent, dir, link); !strings.Contains(out, "state="+dir+"/f0-h1\n") {
		t.Errorf("a symlinked old dir is trusted: %s", out)
	}
}

// TestOnlyUndoAndCheckLookInTheOldPlace: probe and apply keep state in
// StateDir only; undo and check also look in OldStateDir, and undo keeps
// its own exit status after removing the empty old directory.
func TestOnlyUndoAndCheckLookInTheOldPlace(t *testing.T) {
	s, err := Build(Target{ID: "f0-stor1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultFailDisk},
		Disks: []Disk{{Name: "d0", Mount: "/srv/node/d0"}}})
	if err != nil {
		t.Fatal(err)
	}
	for name, sc := range map[string]string{"probe": s.Probe, "apply": s.Apply} {
		if strings.Contains(sc, OldStateDir) {
			t.Errorf("%s looks in %s", name, OldStateDir)
		}
	}
	for name, sc := range map[string]string{"undo": s.Undo, "check": s.Check} {
		if !strings.Contains(sc, OldStateDir) || !strings.Contains(sc, StateDir) {
			t.Errorf("%s does not look in %s and %s", name, StateDir, OldStateDir)
		}
	}
	// The undo's status survives the old directory's removal, and what
	// follows it in one script (the sweep's check) still runs.
	for _, c := range []struct {
		body string
		want bool
	}{{"true", true}, {"false", false}} {
		sc := Scripts{Undo: c.body}.withPrologue(Target{ID: "f9-h1", Host: "h1"}).Undo
		if err := exec.Command("sh", "-c", sc).Run(); (err == nil) != c.want {
			t.Errorf("undo %q: exit error %v, want success %v", c.body, err, c.want)
		}
		out, _ := exec.Command("sh", "-c", sc+"\necho after\n").Output()
		if !strings.Contains(string(out), "after") {
			t.Errorf("undo %q stops the script that follows it", c.body)
		}
	}
}
