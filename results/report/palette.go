package report

import (
	"image/color"

	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// palette is Okabe and Ito's colour-blind-safe palette ("Color Universal
// Design", 2008), the colours that stay apart under protanopia and
// deuteranopia first; its yellow, faint on white, last.
var palette = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 255}, // blue
	color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 255}, // vermillion
	color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 255}, // bluish green
	color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 255}, // orange
	color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 255}, // reddish purple
	color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 255}, // sky blue
	color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 255}, // black
	color.RGBA{R: 0xF0, G: 0xE4, B: 0x42, A: 255}, // yellow
}

// lineColor is the colour of a plot's i-th line: the palette's, again
// from its start after its last (lineDashes then tells them apart).
func lineColor(i int) color.Color { return palette[i%len(palette)] }

// lineDashes is the dash pattern of a plot's i-th line: solid through the
// palette's first round, then plotutil's patterns one round each.
func lineDashes(i int) []vg.Length { return plotutil.Dashes(i / len(palette)) }
