package templates

import (
	"fmt"
	"strings"
)

// Unified returns a unified diff (3 lines of context) from text a to text b,
// labelled nameA and nameB, or "" when they are equal. It compares lines
// with a longest-common-subsequence table: fine for conf files, not for
// large inputs.
func Unified(nameA, nameB, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := editScript(x, y)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameA, nameB)
	for _, h := range hunks(ops, 3) {
		writeHunk(&sb, ops[h[0]:h[1]])
	}
	return sb.String()
}

// op is one line of an edit script: ' ' kept, '-' from a, '+' from b; ai and
// bi are the 0-based line numbers in a and b before this line.
type op struct {
	kind   byte
	text   string
	ai, bi int
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func editScript(x, y []string) []op {
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i, j})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i], i, j})
			i++
		default:
			ops = append(ops, op{'+', y[j], i, j})
			j++
		}
	}
	return ops
}

// hunks returns [start, end) ranges of ops around changes, with ctx lines of
// context, merging ranges that touch.
func hunks(ops []op, ctx int) [][2]int {
	var out [][2]int
	for i, o := range ops {
		if o.kind == ' ' {
			continue
		}
		lo, hi := max(0, i-ctx), min(len(ops), i+ctx+1)
		if len(out) > 0 && lo <= out[len(out)-1][1] {
			out[len(out)-1][1] = max(out[len(out)-1][1], hi)
		} else {
			out = append(out, [2]int{lo, hi})
		}
	}
	return out
}

func writeHunk(sb *strings.Builder, ops []op) {
	na, nb := 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			na++
		}
		if o.kind != '-' {
			nb++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(ops[0].ai, na), hunkRange(ops[0].bi, nb))
	for _, o := range ops {
		sb.WriteString(string(o.kind) + o.text + "\n")
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
