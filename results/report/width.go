package report

import (
	"strings"
	"unicode/utf8"

	"benchbed/results/compare"
)

// textWidth is the columns the text keeps within: Width, or the default
// 120 (compare.DefaultWidth).
func (r *Report) textWidth() int {
	if r.Width > 0 {
		return r.Width
	}
	return compare.DefaultWidth
}

// boxWidth is how wide tablewriter draws a box of columns this wide: each
// column padded by a space either side, a border before each and one after
// the last.
func boxWidth(widths []int) int {
	n := 1
	for _, w := range widths {
		n += w + 3
	}
	return n
}

// colWidths are the widths of t's columns: their widest header or line.
func colWidths(t table) []int {
	out := make([]int, len(t.Header))
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for i, c := range row {
			for l := range strings.SplitSeq(c, "\n") {
				if i < len(out) {
					out[i] = max(out[i], utf8.RuneCountInString(l))
				}
			}
		}
	}
	return out
}

// fitTable makes t's box at most width columns wide: as it is when it
// fits, wrapped in its widest column when that alone makes it fit, else
// its columns in parts, each beginning with t's key columns (what names a
// row) and holding as many more as fit, a column too wide even alone
// beside them wrapped at spaces.
func fitTable(t table, width int) []table {
	widths := colWidths(t)
	keys := t.keys()
	if len(widths) <= keys || boxWidth(widths) <= width {
		return []table{t}
	}
	if j, w := narrowest(widths, keys, width); j > 0 {
		return []table{project(t, keys, allFrom(keys, len(widths)), j, w)}
	}
	room := width - boxWidth(widths[:keys]) // for the other columns, 3 each of it borders and padding
	var parts []table
	var cols []int
	used := 0
	for j := keys; j < len(widths); j++ {
		w := min(widths[j], max(room-3, 8))
		if len(cols) > 0 && used+w+3 > room {
			parts, cols, used = append(parts, project(t, keys, cols, -1, room-3)), nil, 0
		}
		cols, used = append(cols, j), used+w+3
	}
	return append(parts, project(t, keys, cols, -1, room-3))
}

// minWrapped is the narrowest a column is wrapped to rather than the
// table split.
const minWrapped = 30

// narrowest picks the column whose wrapping alone makes the box fit
// width, the widest after the keys, and the width it is wrapped to; 0
// when wrapping it would leave it narrower than minWrapped.
func narrowest(widths []int, keys, width int) (col, to int) {
	for j := keys; j < len(widths); j++ {
		if col == 0 || widths[j] > widths[col] {
			col = j
		}
	}
	to = widths[col] - (boxWidth(widths) - width)
	if col == 0 || to < minWrapped {
		return 0, 0
	}
	return col, to
}

// allFrom is the columns from to n-1.
func allFrom(from, n int) []int {
	out := make([]int, 0, n-from)
	for j := from; j < n; j++ {
		out = append(out, j)
	}
	return out
}

// project is t's keys first columns and its columns cols, the cells of
// column wrap (every one when -1) wrapped at spaces to width runes.
func project(t table, keys int, cols []int, wrap, width int) table {
	pick := func(row []string) []string {
		out := append([]string(nil), row[:min(keys, len(row))]...)
		for _, j := range cols {
			c := ""
			if j < len(row) {
				c = row[j]
			}
			if wrap < 0 || j == wrap {
				c = wrapText(c, max(width, 8))
			}
			out = append(out, c)
		}
		return out
	}
	p := table{Title: t.Title, Header: pick(t.Header), Class: t.Class, Keys: t.Keys}
	for _, row := range t.Rows {
		p.Rows = append(p.Rows, pick(row))
	}
	return p
}

// wrapText breaks s into lines of at most width runes at spaces, a word
// longer than width cut into pieces.
func wrapText(s string, width int) string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		for utf8.RuneCountInString(w) > width {
			if cur != "" {
				lines, cur = append(lines, cur), ""
			}
			r := []rune(w)
			lines, w = append(lines, string(r[:width])), string(r[width:])
		}
		switch {
		case cur == "":
			cur = w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) > width:
			lines, cur = append(lines, cur), w
		default:
			cur += " " + w
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return strings.Join(lines, "\n")
}

// fitLines keeps every line of text within width columns: a table's line
// (a box's) as it is, since fitTable made it fit, any other wrapped at
// spaces, its later lines indented by two spaces.
func fitLines(text string, width int) string {
	var b strings.Builder
	for l := range strings.SplitAfterSeq(text, "\n") {
		body := strings.TrimSuffix(l, "\n")
		if utf8.RuneCountInString(body) <= width || strings.ContainsAny(body[:min(len(body), 4)], "┌│├└") {
			b.WriteString(l)
			continue
		}
		indent := strings.Repeat(" ", len(body)-len(strings.TrimLeft(body, " ")))
		wrapped := wrapText(body, width-len(indent)-2)
		b.WriteString(indent + strings.ReplaceAll(wrapped, "\n", "\n"+indent+"  ") + "\n")
	}
	return b.String()
}

// keys is how many first columns name a row: Keys, at least 1.
func (t table) keys() int { return max(t.Keys, 1) }
