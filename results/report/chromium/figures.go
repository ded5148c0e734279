package chromium

import (
	"encoding/json"
	"fmt"
)

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

// Cover is a legend entry of an inline SVG plot that a plotted line
// crosses: the entry, its figure and a point of the line inside its box.
type Cover struct {
	Figure string  `json:"figure"`
	Name   string  `json:"name"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
}

// coveredJS walks every stroke of the given colours in each figure's
// inline SVG, a point every 2 CSS pixels along it, and returns the points
// inside the box of a text that is one of the names: a legend over the
// lines it names.
const coveredJS = `((names, colours) => {
  const want = new Set(colours.map(c => c.toLowerCase()));
  const out = [];
  for (const f of document.querySelectorAll('figure')) {
    const svg = f.querySelector('svg');
    if (!svg) continue;
    const boxes = Array.from(svg.querySelectorAll('text')).filter(t => names.includes(t.textContent))
      .map(t => ({s: t.textContent, r: t.getBoundingClientRect()}));
    for (const p of svg.querySelectorAll('path')) {
      const c = getComputedStyle(p).stroke;
      if (!want.has(c) || typeof p.getTotalLength !== 'function') continue;
      const m = p.getScreenCTM(), len = p.getTotalLength();
      for (let d = 0; d <= len; d += 2) {
        const q = new DOMPoint(p.getPointAtLength(d).x, p.getPointAtLength(d).y).matrixTransform(m);
        const b = boxes.find(b => q.x >= b.r.left && q.x <= b.r.right && q.y >= b.r.top && q.y <= b.r.bottom);
        if (b) { out.push({figure: f.id, name: b.s, x: q.x, y: q.y}); break; }
      }
    }
  }
  return out;
})(%s, %s)`

// Covered returns, in every figure of the page, the legend entries
// (texts that are one of names) that a line of one of colours (CSS
// rgb(r, g, b) strings) crosses.
func (b *Browser) Covered(names, colours []string) ([]Cover, error) {
	n, err := json.Marshal(names)
	if err != nil {
		return nil, err
	}
	c, err := json.Marshal(colours)
	if err != nil {
		return nil, err
	}
	var out []Cover
	return out, b.Eval(fmt.Sprintf(coveredJS, n, c), &out)
}
