package inspect

import "math"

// Zoom limits of a Camera: 1 shows the whole picture, MaxZoom shows one
// element as MaxZoom times its size at zoom 1.
const (
	MinZoom = 1
	MaxZoom = 64
)

// Point is a position in CSS pixels relative to the top-left corner of the
// inspector's viewport.
type Point struct{ X, Y float64 }

// Camera is the zoom and pan of the inspector's picture: a picture point p
// (CSS pixels at zoom 1, relative to the picture's top-left corner) is drawn
// at viewport position
//
//	v = Pan + Zoom·p
//
// which is the CSS transform translate(Pan) scale(Zoom) with its origin at
// the top-left corner. The zero Camera is treated as zoom 1, no pan.
type Camera struct {
	Zoom float64
	Pan  Point
}

// Scale returns the zoom, 1 for the zero Camera.
func (c Camera) Scale() float64 {
	if c.Zoom == 0 {
		return 1
	}
	return c.Zoom
}

// Moved reports whether the camera differs from the whole picture at zoom 1.
func (c Camera) Moved() bool { return c.Scale() != 1 || c.Pan != (Point{}) }

// ZoomAbout multiplies the zoom by factor (clamped to [MinZoom, MaxZoom])
// keeping the picture point under viewport position at fixed. It reports
// whether the camera changed.
func (c *Camera) ZoomAbout(at Point, factor float64) bool {
	old := c.Scale()
	z := clampZoom(old * factor)
	if z == old || math.IsNaN(z) {
		return false
	}
	c.Pan.X = at.X - (at.X-c.Pan.X)*z/old
	c.Pan.Y = at.Y - (at.Y-c.Pan.Y)*z/old
	c.Zoom = z
	return true
}

// WheelFactor is the zoom factor of a wheel event's deltaY (CSS pixels;
// negative zooms in): 400 pixels of wheel zoom by about 1.8.
func WheelFactor(deltaY float64) float64 { return math.Pow(1.0015, -deltaY) }

// PanBy moves the picture by d CSS pixels.
func (c *Camera) PanBy(d Point) {
	c.Zoom = c.Scale()
	c.Pan.X += d.X
	c.Pan.Y += d.Y
}

// Pinch applies a two-finger gesture whose fingers moved from a0, b0 to a1,
// b1 (viewport positions): the zoom follows the ratio of the distances
// between the fingers (clamped to [MinZoom, MaxZoom]) and the picture point
// that was under the fingers' midpoint moves to their new midpoint, so one
// gesture pinches and drags at once. Fingers on the same spot change nothing.
func (c *Camera) Pinch(a0, b0, a1, b1 Point) {
	d0 := math.Hypot(b0.X-a0.X, b0.Y-a0.Y)
	d1 := math.Hypot(b1.X-a1.X, b1.Y-a1.Y)
	if d0 < 1 || d1 < 1 {
		return
	}
	old := c.Scale()
	z := clampZoom(old * d1 / d0)
	m0 := Point{(a0.X + b0.X) / 2, (a0.Y + b0.Y) / 2}
	m1 := Point{(a1.X + b1.X) / 2, (a1.Y + b1.Y) / 2}
	// The picture point under m0 before the gesture lands under m1 after it.
	px, py := (m0.X-c.Pan.X)/old, (m0.Y-c.Pan.Y)/old
	c.Zoom = z
	c.Pan = Point{m1.X - z*px, m1.Y - z*py}
}

func clampZoom(z float64) float64 { return math.Max(MinZoom, math.Min(MaxZoom, z)) }
