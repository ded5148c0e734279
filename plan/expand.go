package plan

import (
	"fmt"
	"strings"
)

// Expand returns the cells of the matrix: every variant times every workload
// times sweep.repeat, in declaration order (variant, then workload, then
// repeat). It is a pure function of tb: the same testbed gives the same
// cells with the same ids.
func Expand(tb *Testbed) []Cell {
	repeat := tb.Sweep.Repeat
	if repeat < 1 {
		repeat = 1
	}
	cells := make([]Cell, 0, len(tb.Variants)*len(tb.Workloads)*repeat)
	for _, v := range tb.Variants {
		for _, w := range tb.Workloads {
			for r := 1; r <= repeat; r++ {
				i := len(cells) + 1
				cells = append(cells, Cell{ID: CellID(i, v.Name, w.Name, r), Index: i, Variant: v, Workload: w, Repeat: r})
			}
		}
	}
	return cells
}

// CellID returns the stable id of a cell: "<index>-<variant>-<workload>-r<repeat>",
// index zero-padded to three digits, every character other than letters,
// digits, '.', '_' and '-' replaced by '_', so that it is a safe file name.
func CellID(index int, variant, workload string, repeat int) string {
	return fmt.Sprintf("%03d-%s-%s-r%d", index, sanitize(variant), sanitize(workload), repeat)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
