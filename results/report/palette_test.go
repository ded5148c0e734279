package report

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"benchbed/results"
)

// cvdMatrices simulate full protanopia, deuteranopia and tritanopia on
// linear RGB (Machado, Oliveira and Fernandes 2009, severity 1.0).
var cvdMatrices = map[string][3][3]float64{
	"normal vision": {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	"protanopia":    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	"deuteranopia":  {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
	"tritanopia":    {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
}

// minDeltaE is how far apart (CIE76 ΔE) any two line colours must look
// in every vision of cvdMatrices: about twice a just noticeable difference
// for lines beside each other, several times it.
const minDeltaE = 15

// closePairs names the pairs of the colours that look closer than
// minDeltaE to some vision.
func closePairs(cs []color.Color) []string {
	var out []string
	for vision, m := range cvdMatrices {
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				if d := deltaE(seenLab(cs[i], m), seenLab(cs[j], m)); d < minDeltaE {
					out = append(out, fmt.Sprintf("%s: lines %d and %d ΔE %.1f", vision, i, j, d))
				}
			}
		}
	}
	return out
}

// seenLab is c as seen through m, in CIE L*a*b* (D65).
func seenLab(c color.Color, m [3][3]float64) [3]float64 {
	r, g, b, _ := c.RGBA()
	in := [3]float64{linear(r), linear(g), linear(b)}
	var l [3]float64
	for i := range 3 {
		l[i] = min(1, max(0, m[i][0]*in[0]+m[i][1]*in[1]+m[i][2]*in[2]))
	}
	x := (0.4124*l[0] + 0.3576*l[1] + 0.1805*l[2]) / 0.95047
	y := 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	z := (0.0193*l[0] + 0.1192*l[1] + 0.9505*l[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// linear undoes sRGB's gamma of a 16-bit channel.
func linear(v uint32) float64 {
	c := float64(v) / 0xffff
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

func deltaE(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// TestPaletteColourBlindSafe wants the plots' first seven line colours
// (a lab sweep has six variants) apart in normal vision and in each
// dichromacy; gonum's soft colours, which drew two near-identical reds,
// must fail the same check.
func TestPaletteColourBlindSafe(t *testing.T) {
	var lines []color.Color
	for i := range 7 {
		lines = append(lines, lineColor(i))
	}
	for _, p := range closePairs(lines) {
		t.Errorf("palette: %s", p)
	}
	if len(closePairs(plotutil.SoftColors[:6])) == 0 {
		t.Error("the check passes gonum's soft colours, whose red and brown a deuteranope cannot tell apart: it tests nothing")
	}
	if lineColor(len(palette)) != lineColor(0) || len(lineDashes(len(palette))) == 0 || len(lineDashes(0)) != 0 {
		t.Error("after the palette's last colour, lines must repeat its colours with a dash pattern")
	}
}

// TestThroughputPlotDropsPartialSeconds wants the first and last seconds
// of a run, partial, left out of req/s over time, each kept second at its
// index.
func TestThroughputPlotDropsPartialSeconds(t *testing.T) {
	got := wholeSeconds([]int64{300, 1000, 1010, 990, 60})
	if len(got) != 3 || got[0].X != 1 || got[0].Y != 1000 || got[2].X != 3 || got[2].Y != 990 {
		t.Errorf("whole seconds of 300 1000 1010 990 60: %v, want (1,1000) (2,1010) (3,990)", got)
	}
	if got := wholeSeconds([]int64{5, 7}); len(got) != 2 {
		t.Errorf("a run of 2 seconds keeps both: %v", got)
	}
	ch, err := ThroughputPlot([]results.Cell{{ID: "c", PerSecond: []int64{300, 1000, 1010, 990, 60}}})
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := ch.Legend[0].Thumbs[0].(*plotter.Line); !ok || len(l.XYs) != 3 {
		t.Errorf("req/s over time draws %v, want the 3 whole seconds", ch.Legend[0].Thumbs)
	}
}
