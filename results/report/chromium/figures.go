package chromium

import "fmt"

// Figure is what Chromium shows of one <figure> of a page: its plot (an
// <img> or an inline <svg>), its box in CSS pixels and the texts drawn
// in it with their boxes.
type Figure struct {
	ID       string  `json:"id"`
	Tag      string  `json:"tag"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	Width    float64 `json:"w"`
	Height   float64 `json:"h"`
	Natural  int     `json:"natural"` // an <img>'s naturalWidth, -1 for inline SVG
	Complete bool    `json:"complete"`
	Shown    bool    `json:"shown"`
	Texts    []Text  `json:"texts"`
}

// Text is one <text> of an inline SVG and its box in CSS pixels.
type Text struct {
	S string  `json:"s"`
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// figuresJS collects every figure's plot as the browser lays it out.
const figuresJS = `Array.from(document.querySelectorAll('figure')).map(f => {
  const el = f.querySelector('svg, img');
  if (!el) return {id: f.id, tag: '', x: 0, y: 0, w: 0, h: 0, natural: 0, complete: false, shown: false, texts: []};
  const r = el.getBoundingClientRect(), st = getComputedStyle(el);
  const img = el.tagName === 'IMG';
  return {id: f.id, tag: el.tagName.toLowerCase(), x: r.x, y: r.y, w: r.width, h: r.height,
    natural: img ? el.naturalWidth : -1, complete: img ? el.complete : true,
    shown: st.display !== 'none' && st.visibility !== 'hidden' && r.width > 0 && r.height > 0,
    texts: Array.from(el.querySelectorAll('text')).map(x => {
      const b = x.getBoundingClientRect();
      return {s: x.textContent, x: b.x, y: b.y, w: b.width, h: b.height};
    })};
})`

// Figures returns the page's figures.
func (b *Browser) Figures() ([]Figure, error) {
	var out []Figure
	return out, b.Eval(figuresJS, &out)
}

// slack is how far a text's box may pass its plot's: the box is its
// font's line box, a little taller than its glyphs.
const slack = 3

// Problems says what is wrong with the figure as shown: a plot that is
// not loaded or not shown, a text cut by the plot's edge.
func (f Figure) Problems() []string {
	var out []string
	if !f.Shown || f.Natural == 0 || !f.Complete {
		out = append(out, fmt.Sprintf("figure %s: its <%s> is not shown (%.0fx%.0f px, naturalWidth %d, complete %v)",
			f.ID, f.Tag, f.Width, f.Height, f.Natural, f.Complete))
	}
	for _, x := range f.Texts {
		if x.X < f.X-slack || x.Y < f.Y-slack || x.X+x.W > f.X+f.Width+slack || x.Y+x.H > f.Y+f.Height+slack {
			out = append(out, fmt.Sprintf("figure %s: text %q (%.0f,%.0f %.0fx%.0f) is cut by its plot's box (%.0f,%.0f %.0fx%.0f)",
				f.ID, x.S, x.X, x.Y, x.W, x.H, f.X, f.Y, f.Width, f.Height))
		}
	}
	return out
}

// Overlap reports whether two texts' boxes overlap.
func Overlap(a, b Text) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}
