package catalog

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// examples is where Debian installs Swift's sample confs.
const examples = "/usr/share/doc/swift/examples"

// installedVersion is the version of the Swift installed here, "" when none.
func installedVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "python3-swift").Output()
	if err != nil {
		return ""
	}
	v, _, _ := strings.Cut(string(out), "-")
	return v
}

// TestCatalogAgreesWithInstalledSamples reads the sample confs of the Swift
// installed here and checks that the carried catalog of that version has
// every section and option they document, with the same default.
func TestCatalogAgreesWithInstalledSamples(t *testing.T) {
	v := installedVersion()
	ents, err := os.ReadDir(examples)
	if v == "" || err != nil {
		t.Skipf("SKIP: no Swift installed here (python3-swift, %s): the catalog is not checked against its samples; make test installs it", examples)
	}
	files := map[string]io.Reader{}
	for _, e := range ents {
		f, err := os.Open(filepath.Join(examples, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files[e.Name()] = f
	}
	here, err := FromSamples(v, examples, files)
	if err != nil {
		t.Fatal(err)
	}
	carried := mustLoad(t, v)
	n := 0
	for _, conf := range here.ConfNames() {
		n += agree(t, conf, here.Confs[conf], carried.Conf(conf))
	}
	if n < 500 {
		t.Errorf("only %d options compared: the samples were not read", n)
	}
}

// agree checks that carried has every section and option of here, with its
// default, and returns how many options it compared.
func agree(t *testing.T, conf string, here, carried *Conf) int {
	t.Helper()
	if carried == nil {
		t.Errorf("the carried catalog has no %s.conf", conf)
		return 0
	}
	n := 0
	for _, sn := range here.SectionNames() {
		cs := carried.Sections[sn]
		if cs == nil {
			t.Errorf("%s.conf: the carried catalog has no [%s]", conf, sn)
			continue
		}
		for k, o := range here.Sections[sn].Options {
			n++
			co, ok := cs.Options[k]
			switch {
			case !ok:
				t.Errorf("%s.conf [%s]: the carried catalog lacks %s", conf, sn, k)
			case o.HasDefault() && co.HasDefault() && o.Default != co.Default:
				t.Errorf("%s.conf [%s] %s: default %q here, %q carried", conf, sn, k, o.Default, co.Default)
			}
		}
	}
	return n
}
