package inspect

import (
	"math"
	"testing"
)

// drawn is where the camera draws picture point p (the Camera's formula).
func drawn(c Camera, p Point) Point {
	return Point{c.Pan.X + c.Scale()*p.X, c.Pan.Y + c.Scale()*p.Y}
}

func near(a, b Point) bool { return math.Abs(a.X-b.X) < 1e-9 && math.Abs(a.Y-b.Y) < 1e-9 }

func TestCameraZoomAbout(t *testing.T) {
	for _, c := range []struct {
		name     string
		start    Camera
		at       Point
		factor   float64
		want     Camera
		changed  bool
		fixedPic Point // the picture point under at, which must stay there
	}{
		{"zoom in about the origin", Camera{}, Point{0, 0}, 2, Camera{2, Point{0, 0}}, true, Point{0, 0}},
		{"zoom in about a point", Camera{}, Point{100, 50}, 4, Camera{4, Point{-300, -150}}, true, Point{100, 50}},
		{"zoom out of a panned view", Camera{4, Point{-300, -150}}, Point{100, 50}, 0.5, Camera{2, Point{-100, -50}}, true, Point{100, 50}},
		{"clamped at the top", Camera{32, Point{}}, Point{0, 0}, 4, Camera{MaxZoom, Point{}}, true, Point{}},
		{"already at the top", Camera{MaxZoom, Point{}}, Point{10, 10}, 2, Camera{MaxZoom, Point{}}, false, Point{}},
		{"never below 1", Camera{}, Point{10, 10}, 0.5, Camera{}, false, Point{}},
		{"NaN factor", Camera{2, Point{1, 1}}, Point{10, 10}, math.NaN(), Camera{2, Point{1, 1}}, false, Point{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cam := c.start
			pic := Point{(c.at.X - cam.Pan.X) / cam.Scale(), (c.at.Y - cam.Pan.Y) / cam.Scale()}
			if got := cam.ZoomAbout(c.at, c.factor); got != c.changed {
				t.Errorf("ZoomAbout reports %v, want %v", got, c.changed)
			}
			if cam.Scale() != c.want.Scale() || !near(cam.Pan, c.want.Pan) {
				t.Errorf("camera %+v, want %+v", cam, c.want)
			}
			if c.changed && cam.Scale() != MaxZoom && !near(drawn(cam, pic), c.at) {
				t.Errorf("the picture point %v is drawn at %v, want it kept at %v", pic, drawn(cam, pic), c.at)
			}
		})
	}
}

func TestCameraPinch(t *testing.T) {
	for _, c := range []struct {
		name           string
		start          Camera
		a0, b0, a1, b1 Point
		wantZoom       float64
	}{
		{"spread apart: zoom 2", Camera{}, Point{100, 100}, Point{200, 100}, Point{50, 100}, Point{250, 100}, 2},
		{"spread and drag", Camera{}, Point{100, 100}, Point{200, 100}, Point{80, 140}, Point{280, 140}, 2},
		{"pinch in from zoom 4", Camera{4, Point{-300, -300}}, Point{0, 0}, Point{0, 200}, Point{0, 50}, Point{0, 150}, 2},
		{"two-finger drag: zoom kept", Camera{3, Point{-10, -20}}, Point{10, 10}, Point{60, 10}, Point{30, 40}, Point{80, 40}, 3},
		{"clamped at 1", Camera{2, Point{-50, -50}}, Point{0, 0}, Point{100, 0}, Point{0, 0}, Point{10, 0}, 1},
		{"clamped at the top", Camera{60, Point{}}, Point{0, 0}, Point{10, 0}, Point{0, 0}, Point{100, 0}, MaxZoom},
	} {
		t.Run(c.name, func(t *testing.T) {
			cam := c.start
			m0 := Point{(c.a0.X + c.b0.X) / 2, (c.a0.Y + c.b0.Y) / 2}
			m1 := Point{(c.a1.X + c.b1.X) / 2, (c.a1.Y + c.b1.Y) / 2}
			pic := Point{(m0.X - cam.Pan.X) / cam.Scale(), (m0.Y - cam.Pan.Y) / cam.Scale()}
			cam.Pinch(c.a0, c.b0, c.a1, c.b1)
			if math.Abs(cam.Scale()-c.wantZoom) > 1e-12 {
				t.Errorf("zoom %g, want %g", cam.Scale(), c.wantZoom)
			}
			if !near(drawn(cam, pic), m1) {
				t.Errorf("the picture point under the fingers (%v) is drawn at %v, want the new midpoint %v", pic, drawn(cam, pic), m1)
			}
		})
	}
	// Fingers on one spot (a stuck touch point) change nothing.
	cam := Camera{2, Point{5, 5}}
	cam.Pinch(Point{10, 10}, Point{10, 10}, Point{0, 0}, Point{100, 0})
	if cam != (Camera{2, Point{5, 5}}) {
		t.Errorf("a zero-distance start moved the camera to %+v", cam)
	}
}

func TestCameraPanAndWheel(t *testing.T) {
	var cam Camera
	if cam.Moved() {
		t.Error("the zero camera reports Moved")
	}
	cam.PanBy(Point{20, -10})
	if cam != (Camera{1, Point{20, -10}}) || !cam.Moved() {
		t.Errorf("after PanBy: %+v", cam)
	}
	if f := WheelFactor(-400); math.Abs(f-math.Pow(1.0015, 400)) > 1e-12 || f < 1.8 || f > 1.9 {
		t.Errorf("WheelFactor(-400) = %g, want about 1.82", f)
	}
	if f := WheelFactor(400); f >= 1 {
		t.Errorf("WheelFactor(400) = %g, want < 1 (zoom out)", f)
	}
}
