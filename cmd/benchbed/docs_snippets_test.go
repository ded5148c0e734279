package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"benchbed/plan/decode"
	"benchbed/plan/lang"
)

// docSnippet is one fenced HCL block of a document: ```hcl, or
// ```hcl-invalid for an example that shows a mistake; ```hcl NAME is
// also the file NAME beside the document's later snippets (a lab file
// they include).
type docSnippet struct {
	file    string
	line    int // of the opening fence
	text    string
	invalid bool
	name    string // the file it is, "" for none
}

// importedExample is the file name by which the docs' experiments include
// what `benchbed import` writes of the lab (internal/importer's golden
// file, which its round-trip test keeps equal to the import's output).
const importedExample = "mycluster.hcl"

// TestDocsSnippets validates every HCL example of the README, the
// language reference and docs/ (its guides included): a whole testbed as it is, a fragment
// completed by testdata/docs/skeleton.hcl. An example marked hcl-invalid
// must fail, so the mark cannot hide a broken example either.
func TestDocsSnippets(t *testing.T) {
	skel, err := os.ReadFile("testdata/docs/skeleton.hcl")
	if err != nil {
		t.Fatal(err)
	}
	snips := docSnippets(t)
	if len(snips) < 8 {
		t.Fatalf("found %d HCL snippets in the docs, want 8 or more: is the extraction broken?", len(snips))
	}
	imported, err := os.ReadFile("../../internal/importer/testdata/lab-import.hcl")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]map[string]string{} // document -> file name -> text
	for _, s := range snips {
		beside := map[string]string{importedExample: string(imported)}
		for name, text := range named[s.file] {
			beside[name] = text
		}
		if s.name != "" {
			if named[s.file] == nil {
				named[s.file] = map[string]string{}
			}
			named[s.file][s.name] = s.text
		}
		t.Run(fmt.Sprintf("%s:%d", s.file, s.line), func(t *testing.T) {
			diags := validateSnippet(t, completeSnippet(t, skel, []byte(s.text)), beside)
			switch {
			case s.invalid && !diags.HasErrors():
				t.Errorf("%s:%d is marked hcl-invalid and validates", s.file, s.line)
			case !s.invalid && diags.HasErrors():
				t.Errorf("%s:%d does not validate:\n%s", s.file, s.line, formatDiags(diags))
			}
		})
	}
}

// docSnippets returns the HCL snippets of the docs (docFiles).
func docSnippets(t *testing.T) []docSnippet {
	var out []docSnippet
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fencedHCL(strings.TrimPrefix(f, "../../"), b)...)
	}
	return out
}

// docFiles returns the documents the docs' tests read, relative to this
// package: README.md, plan/LANGUAGE.md and every .md file under docs/, its
// guides included.
func docFiles(t *testing.T) []string {
	files := []string{"../../README.md", "../../plan/LANGUAGE.md"}
	err := filepath.WalkDir("../../docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fencedHCL returns the ```hcl and ```hcl-invalid blocks of a Markdown
// text.
func fencedHCL(name string, md []byte) []docSnippet {
	var out []docSnippet
	var cur *docSnippet
	sc := bufio.NewScanner(bytes.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && (line == "```hcl" || line == "```hcl-invalid"):
			cur = &docSnippet{file: name, line: n, invalid: line == "```hcl-invalid"}
		case cur == nil && strings.HasPrefix(line, "```hcl "):
			cur = &docSnippet{file: name, line: n, name: strings.TrimSpace(strings.TrimPrefix(line, "```hcl "))}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	return out
}

// completeSnippet returns frag as it is when it is a whole testbed (it
// has a testbed block) or does not parse; else the skeleton's blocks that
// frag does not declare itself, then frag.
func completeSnippet(t *testing.T, skel, frag []byte) []byte {
	f, diags := hclsyntax.ParseConfig(frag, "snippet.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		return frag
	}
	declared := map[string]bool{}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		declared[blockKey(b)] = true
		if b.Type == "include" {
			declared["testbed"] = true // an experiment: its lab file is the rest
		}
	}
	if declared["testbed"] {
		return frag
	}
	sf, diags := hclsyntax.ParseConfig(skel, "skeleton.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("skeleton: %s", diags)
	}
	var out bytes.Buffer
	for _, b := range sf.Body.(*hclsyntax.Body).Blocks {
		if !declared[blockKey(b)] {
			out.Write(b.Range().SliceBytes(skel))
			out.WriteString("\n")
		}
	}
	out.Write(frag)
	return out.Bytes()
}

// blockKey names a top-level block: its type for the blocks a testbed
// has once, else its type and labels.
func blockKey(b *hclsyntax.Block) string {
	switch b.Type {
	case "testbed", "sweep", "telemetry", "ssh", "prefill":
		return b.Type
	}
	return b.Type + " " + strings.Join(b.Labels, " ")
}

var scenarioRE = regexp.MustCompile(`scenario\s*=\s*"([^"]+)"`)

// validateSnippet writes src as a testbed in a temporary directory, with
// the scenario files it names and the files beside it (name -> text: the
// document's earlier named snippets), and loads it with
// BENCHBED_VAR_auth_key set.
func validateSnippet(t *testing.T, src []byte, beside map[string]string) hcl.Diagnostics {
	dir := t.TempDir()
	for name, text := range beside {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range scenarioRE.FindAllSubmatch(src, -1) {
		p := filepath.Join(dir, string(m[1]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, scenarioFor(t, filepath.Base(p)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "testbed.hcl")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	// The README's experiment declares auth_key without a default and
	// says to give it in the environment, as a real key should be given.
	_, diags := decode.Load(p, decode.LoadOptions{Environ: []string{"BENCHBED_VAR_auth_key=docs-key",
		"BENCHBED_VAR_tempauth_bench_bench_key=docs-key"}})
	return diags
}

// scenarioFor is the scenario file of testbeds/ named name, or a 64 KiB
// GET scenario.
func scenarioFor(t *testing.T, name string) []byte {
	found := "../../testbeds/lab/64K_get_lab.scenario"
	_ = filepath.WalkDir("../../testbeds", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name {
			found = p
		}
		return nil
	})
	b, err := os.ReadFile(found)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// formatDiags renders diags one per line, errors only.
func formatDiags(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags.Errs() {
		if hd, ok := d.(*hcl.Diagnostic); ok {
			b.WriteString(lang.FormatDiagnostic(hd) + "\n")
		}
	}
	return b.String()
}
