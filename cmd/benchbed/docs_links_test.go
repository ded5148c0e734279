package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// mdLinkRE finds a Markdown link or image's target: [text](target) or
// [text](target "title").
var mdLinkRE = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestDocsLinks checks every relative link of the docs (docFiles): its
// file or folder exists, and its #anchor, if any, is a heading of the
// target (GitHub's anchors: the heading's text in lower case, punctuation
// dropped, spaces as hyphens, "-1", "-2"... for repeats).
func TestDocsLinks(t *testing.T) {
	anchors := map[string]map[string]bool{} // by cleaned path
	links := 0
	for _, f := range docFiles(t) {
		md, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range mdLinks(md) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			links++
			path, anchor, _ := strings.Cut(l.target, "#")
			target := filepath.Clean(f)
			if path != "" {
				target = filepath.Join(filepath.Dir(f), path)
			}
			name := strings.TrimPrefix(f, "../../")
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s:%d: link %q: no such file or folder", name, l.line, l.target)
				continue
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				t.Errorf("%s:%d: link %q: an anchor into a file that is not Markdown", name, l.line, l.target)
				continue
			}
			if anchors[target] == nil {
				b, err := os.ReadFile(target)
				if err != nil {
					t.Fatal(err)
				}
				anchors[target] = mdAnchors(b)
			}
			if !anchors[target][anchor] {
				t.Errorf("%s:%d: link %q: %s has no heading with anchor #%s", name, l.line, l.target,
					strings.TrimPrefix(target, "../../"), anchor)
			}
		}
	}
	if links < 20 {
		t.Errorf("found %d relative links in the docs, want 20 or more: is the extraction broken?", links)
	}
}

// mdLink is a link's target and the line it is on.
type mdLink struct {
	target string
	line   int
}

// mdLinks returns the link targets of a Markdown text outside its fenced
// code blocks and inline code spans.
func mdLinks(md []byte) []mdLink {
	var out []mdLink
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range mdLinkRE.FindAllStringSubmatch(withoutCodeSpans(line), -1) {
			out = append(out, mdLink{target: m[1], line: n})
		}
	}
	return out
}

// codeSpanRE matches an inline code span of one or more backticks.
var codeSpanRE = regexp.MustCompile("(`+)[^`]*?(`+)")

// withoutCodeSpans blanks a line's inline code, where brackets are text.
func withoutCodeSpans(line string) string {
	return codeSpanRE.ReplaceAllString(line, "``")
}

// mdAnchors returns the anchors of a Markdown text's headings (outside
// fenced code) and of its explicit <a id="..."> or <a name="..."> tags.
func mdAnchors(md []byte) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range htmlAnchorRE.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		text, ok := headingText(line)
		if !ok {
			continue
		}
		slug := headingSlug(text)
		if k := seen[slug]; k > 0 {
			out[slug+"-"+strconv.Itoa(k)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// htmlAnchorRE finds an explicit anchor tag's id or name.
var htmlAnchorRE = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)

// headingText returns an ATX heading's text ("## Text ##" gives "Text").
func headingText(line string) (string, bool) {
	hashes := len(line) - len(strings.TrimLeft(line, "#"))
	if hashes < 1 || hashes > 6 || len(line) == hashes || line[hashes] != ' ' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[hashes:]), "#")), true
}

// headingSlug is GitHub's anchor of a heading's text: links reduced to
// their text, lower case, letters, digits, '-' and '_' kept, spaces as
// hyphens, anything else dropped.
func headingSlug(text string) string {
	text = mdLinkTextRE.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// mdLinkTextRE matches a link inside a heading, keeping its text.
var mdLinkTextRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// TestHeadingSlug pins the anchors the links rely on to GitHub's rule.
func TestHeadingSlug(t *testing.T) {
	for text, want := range map[string]string{
		"compare --json's verdict and gates": "compare---jsons-verdict-and-gates",
		"Capacity, auto runs and gates":      "capacity-auto-runs-and-gates",
		"The local lab (`make demo`)":        "the-local-lab-make-demo",
		"`benchbed compare` gates and N-way": "benchbed-compare-gates-and-n-way",
		"A capacity search (contract)":       "a-capacity-search-contract",
		"See [the CLI](docs/cli.md)":         "see-the-cli",
	} {
		if got := headingSlug(text); got != want {
			t.Errorf("headingSlug(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestMdAnchorsRepeatsAndFences: a repeated heading gets -1, a heading
// inside fenced code none.
func TestMdAnchorsRepeatsAndFences(t *testing.T) {
	got := mdAnchors([]byte("# Title\n## Usage\n```\n## Not one\n```\n## Usage\n<a id=\"here\"></a>\n"))
	for _, a := range []string{"title", "usage", "usage-1", "here"} {
		if !got[a] {
			t.Errorf("anchor %q missing from %v", a, got)
		}
	}
	if got["not-one"] {
		t.Errorf("a heading in fenced code gave an anchor: %v", got)
	}
}
