package plan

import (
	"fmt"
	"strings"
)

// Expand returns the cells of the matrix: every variant times every workload
// times its planned repeats (sweep.repeat; a repeat = "auto" workload's
// minimum: Testbed.Repeats), in declaration order (variant, then workload,
// then repeat). It is a pure function of tb: the same testbed gives the same
// cells with the same ids. The repeats an "auto" workload may add are
// schedule.Rounds'.
func Expand(tb *Testbed) []Cell {
	var cells []Cell
	for _, v := range tb.Variants {
		for _, w := range tb.Workloads {
			repeat, _ := tb.Repeats(w)
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
