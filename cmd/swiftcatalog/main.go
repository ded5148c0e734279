// Command swiftcatalog builds the catalog of one Swift version's options
// (package templates/catalog) from that version's sample confs: a Swift git
// repository's etc/*.conf-sample at a release tag, then directories of
// samples (Debian's /usr/share/doc/swift/examples), each adding the
// sections and options the sources before it lack.
//
//	go run ./cmd/swiftcatalog -version 2.33.0 -git ~/swift \
//	    > templates/catalog/data/swift-2.33.0.json
//
// scripts/catalogs.sh makes every catalog benchbed carries.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"benchbed/templates/catalog"
)

func main() {
	version := flag.String("version", "", "the Swift version the samples document (required)")
	source := flag.String("source", "", "where the samples came from, recorded in the catalog")
	repo := flag.String("git", "", "a Swift git repository whose etc/*.conf-sample to read")
	tag := flag.String("tag", "", "the release tag to read them at (default: -version)")
	flag.Parse()
	if *version == "" {
		fmt.Fprintln(os.Stderr, "usage: swiftcatalog -version V [-source TEXT] [-git REPO [-tag T]] [DIR...]")
		os.Exit(2)
	}
	if *tag == "" {
		*tag = *version
	}
	if err := run(*version, *source, *repo, *tag, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "swiftcatalog:", err)
		os.Exit(1)
	}
}

// run reads the sources in order, merges them and prints the catalog.
func run(version, source, repo, tag string, dirs []string) error {
	var sets []map[string]io.Reader
	var what []string
	if repo != "" {
		files, err := readGit(repo, tag)
		if err != nil {
			return err
		}
		sets, what = append(sets, files), append(what, "Swift's etc/*.conf-sample at tag "+tag)
	}
	for _, d := range dirs {
		files, err := readDir(d)
		if err != nil {
			return err
		}
		sets, what = append(sets, files), append(what, d)
	}
	if len(sets) == 0 {
		return fmt.Errorf("no source: give -git REPO or directories")
	}
	if source == "" {
		source = "sample confs: " + strings.Join(what, ", then ")
	}
	return build(version, source, sets)
}

// build merges the catalogs of sets in order and prints the result.
func build(version, source string, sets []map[string]io.Reader) error {
	var out *catalog.Catalog
	for _, files := range sets {
		c, err := catalog.FromSamples(version, source, files)
		if err != nil {
			return err
		}
		if out == nil {
			out = c
		} else {
			out.Merge(c)
		}
	}
	b, err := out.Encode()
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(b)
	return err
}

// readDir returns the sample confs of dir.
func readDir(dir string) (map[string]io.Reader, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string]io.Reader{}
	for _, e := range ents {
		if e.IsDir() || catalog.SampleConf(e.Name()) == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = bytes.NewReader(b)
	}
	return files, nil
}

// readGit returns the etc/*.conf-sample of repo at tag.
func readGit(repo, tag string) (map[string]io.Reader, error) {
	out, err := exec.Command("git", "-C", repo, "ls-tree", "--name-only", tag, "etc/").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-tree %s etc/ in %s: %w", tag, repo, err)
	}
	files := map[string]io.Reader{}
	for _, f := range strings.Fields(string(out)) {
		if catalog.SampleConf(f) == "" {
			continue
		}
		b, err := exec.Command("git", "-C", repo, "show", tag+":"+f).Output()
		if err != nil {
			return nil, fmt.Errorf("git show %s:%s: %w", tag, f, err)
		}
		files[f] = bytes.NewReader(b)
	}
	return files, nil
}
