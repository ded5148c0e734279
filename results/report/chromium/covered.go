package chromium

import (
	"encoding/json"
	"fmt"
)

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
