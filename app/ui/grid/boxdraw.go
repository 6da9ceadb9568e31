package grid

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/summary"
)

// drawMarks draws the ring of each mark's rectangle on a preview canvas,
// over what it shows, in order: four opaque rectangles on whole pixels, so
// each ring pixel is exactly the mark's colour (a rectangle narrower than
// two rings is filled). The canvas says how many it drew (data-marks).
func drawMarks(canvas app.Value, marks []summary.Mark) {
	if !canvas.Truthy() || len(marks) == 0 {
		return
	}
	c2d := canvas.Call("getContext", "2d")
	for _, m := range marks {
		r := m.Rect
		w, h := r.Dx(), r.Dy()
		if w <= 0 || h <= 0 {
			continue
		}
		c2d.Set("fillStyle", fmt.Sprintf("rgb(%d,%d,%d)", m.Color.R, m.Color.G, m.Color.B))
		t := max(m.Width, 1)
		tw, th := min(t, w), min(t, h)
		c2d.Call("fillRect", r.Min.X, r.Min.Y, w, th)
		c2d.Call("fillRect", r.Min.X, r.Max.Y-th, w, th)
		c2d.Call("fillRect", r.Min.X, r.Min.Y, tw, h)
		c2d.Call("fillRect", r.Max.X-tw, r.Min.Y, tw, h)
	}
	canvas.Call("setAttribute", "data-marks", len(marks))
}
