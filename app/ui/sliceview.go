package ui

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/ui/inspector/boxes"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/tensorext"
)

// Display geometry of the inspector's picture, in CSS pixels.
const (
	sliceBox     = 512 // the picture fits this square at zoom 1 (less on narrow screens)
	minSliceBox  = 160
	tapSlop      = 6       // a touch that moves less than this is a tap
	neighbourMax = 64 * 64 // tensors up to this many elements get a table of values around the pointer
)

// SliceView draws the inspector's picture one canvas pixel per element and
// reads out the index and exact value under the pointer (or under a tap).
// The mouse zooms with the wheel and pans by dragging; on touch screens one
// finger drags and two fingers pinch and drag at once (inspect.Camera holds
// the geometry).
type SliceView struct {
	app.Compo
	Tensor tensorext.Tensor
	View   inspect.View
	Img    *image.RGBA
	Start  inspect.Camera // the zoom and pan it opens with (a link's)
	Probe  masks.Probe    // the mask drawn over Img, for the readout
	Labels []boxes.Label  // the labels of the boxes drawn over Img
	Boxes  boxProbe       // the boxes drawn over Img, for the readout

	// Also is more for the readout at picture pixel (x, y) (a comparison's
	// other sides), or nil. A Start that changes is followed (the panes
	// of a comparison share one camera).
	Also func(x, y int) string
	// Shared: a pane of a comparison. While a drag or pinch is under way
	// every pane's picture follows it at once (follow), and nothing is
	// rendered until it ends and the inspector takes the camera.
	Shared  bool
	started inspect.Camera // the Start followed last

	box      float64 // the square the picture fits at zoom 1, measured
	cam      inspect.Camera
	pointers map[int]inspect.Point // pointers down, viewport positions
	pinch    pinchStart            // the two-finger gesture under way
	start    inspect.Point         // where a single touch went down
	tap      bool                  // the single touch has not moved beyond tapSlop
	hoverX   int
	hoverY   int
	hover    bool
	draws    int // pictures drawn on the canvas (its data-drawn)
}

// pinchStart is the state a two-finger gesture started from: each move
// applies the whole gesture to it (so zoom clamping in between loses
// nothing).
type pinchStart struct {
	ida    int
	idb    int
	a, b   inspect.Point
	camera inspect.Camera
}

// OnMount measures the room the picture has and draws it.
func (s *SliceView) OnMount(ctx app.Context) {
	s.cam, s.started = s.Start, s.Start
	s.measure()
	ctx.Defer(func(app.Context) { s.draw() })
}

// OnResize fits the picture to the new width.
func (s *SliceView) OnResize(ctx app.Context) {
	if !s.measure() {
		ctx.PreventUpdate()
	}
}

// measure sets the picture's box from the width of the component's element:
// sliceBox on wide screens, the available width on phones.
func (s *SliceView) measure() bool {
	box := float64(sliceBox)
	if el := s.JSValue(); el.Truthy() {
		if w := el.Get("clientWidth").Float() - 2; w > 0 {
			box = math.Max(minSliceBox, math.Min(sliceBox, math.Floor(w)))
		}
	}
	if box == s.box {
		return false
	}
	s.box = box
	return true
}

// OnUpdate redraws once the canvas has its new size.
func (s *SliceView) OnUpdate(ctx app.Context) {
	if s.Start != s.started {
		s.cam, s.started = s.Start, s.Start
	}
	if s.hover {
		s.hover = s.hoverX < s.Img.Bounds().Dx() && s.hoverY < s.Img.Bounds().Dy()
	}
	ctx.Defer(func(app.Context) { s.draw() })
}

func (s *SliceView) draw() {
	el := s.JSValue()
	if !el.Truthy() || s.Img == nil {
		return
	}
	c := el.Call("querySelector", "canvas[data-role=slice]")
	kit.PutImage(c, s.Img)
	// The canvas says it holds the picture (its size is set by the render
	// before this, the pixels only here): tests wait for it.
	s.draws++
	c.Call("setAttribute", "data-drawn", s.draws)
}

func (s *SliceView) boxSize() float64 {
	if s.box == 0 {
		return sliceBox
	}
	return s.box
}

// scale is the CSS size of one element at zoom 1.
func (s *SliceView) scale() float64 {
	b := s.Img.Bounds()
	return math.Min(s.boxSize()/float64(b.Dx()), s.boxSize()/float64(b.Dy()))
}

// pixelAt maps a viewport position to the picture pixel drawn there.
func (s *SliceView) pixelAt(v inspect.Point) (x, y int, ok bool) {
	b := s.Img.Bounds()
	k := s.cam.Scale() * s.scale()
	x = int(math.Floor((v.X - s.cam.Pan.X) / k))
	y = int(math.Floor((v.Y - s.cam.Pan.Y) / k))
	return x, y, x >= 0 && y >= 0 && x < b.Dx() && y < b.Dy()
}

// viewportPoint is a pointer event's position relative to the top-left
// corner inside the border of the viewport element (the handlers'
// currentTarget), where the canvas is placed.
func viewportPoint(e app.Event) inspect.Point {
	el := e.Get("currentTarget")
	r := el.Call("getBoundingClientRect")
	return inspect.Point{
		X: e.Get("clientX").Float() - r.Get("left").Float() - el.Get("clientLeft").Float(),
		Y: e.Get("clientY").Float() - r.Get("top").Float() - el.Get("clientTop").Float(),
	}
}

// setHover points the readout at the pixel under v; false when nothing changed.
func (s *SliceView) setHover(v inspect.Point) bool {
	x, y, ok := s.pixelAt(v)
	if ok == s.hover && x == s.hoverX && y == s.hoverY {
		return false
	}
	s.hover, s.hoverX, s.hoverY = ok, x, y
	return true
}

func (s *SliceView) onPointerDown(ctx app.Context, e app.Event) {
	if e.Get("pointerType").String() == "mouse" && e.Get("button").Int() != 0 {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	e.Get("currentTarget").Call("setPointerCapture", e.Get("pointerId"))
	if s.pointers == nil {
		s.pointers = map[int]inspect.Point{}
	}
	v, id := viewportPoint(e), e.Get("pointerId").Int()
	if len(s.pointers) >= 2 {
		ctx.PreventUpdate() // a third finger is ignored
		return
	}
	s.pointers[id] = v
	s.start, s.tap = v, len(s.pointers) == 1
	if len(s.pointers) == 2 {
		other := s.otherID(id)
		s.pinch = pinchStart{ida: other, idb: id, a: s.pointers[other], b: v, camera: s.cam}
	}
	ctx.PreventUpdate()
}

func (s *SliceView) onPointerMove(ctx app.Context, e app.Event) {
	id, v := e.Get("pointerId").Int(), viewportPoint(e)
	prev, down := s.pointers[id]
	switch {
	case !down: // a mouse hovering
		if !s.setHover(v) {
			ctx.PreventUpdate()
		}
	case len(s.pointers) == 1:
		if s.tap && math.Hypot(v.X-s.start.X, v.Y-s.start.Y) < tapSlop {
			ctx.PreventUpdate() // still a tap: keep the picture still
			return
		}
		s.tap = false
		s.pointers[id] = v
		s.cam.PanBy(inspect.Point{X: v.X - prev.X, Y: v.Y - prev.Y})
		s.follow(ctx)
	default: // two fingers
		s.tap = false
		s.pointers[id] = v
		p := s.pinch
		a, aok := s.pointers[p.ida]
		b, bok := s.pointers[p.idb]
		if !aok || !bok || p.ida == p.idb { // no gesture started from these two
			ctx.PreventUpdate()
			return
		}
		s.cam = p.camera
		s.cam.Pinch(p.a, p.b, a, b)
		s.follow(ctx)
	}
}

// follow shows a comparison pane's camera, moved by a gesture under way,
// on every pane of the comparison at once: their canvases' transforms and
// the panes' data-pan and data-zoom, set directly, without rendering the
// inspector (go-app would render it and its parents on every move). The
// inspector renders them alike when the gesture ends (onPointerUp). A pane
// alone renders itself.
func (s *SliceView) follow(ctx app.Context) {
	if !s.Shared {
		return
	}
	ctx.PreventUpdate()
	el := s.JSValue()
	if !el.Truthy() {
		return
	}
	panes := el.Call("closest", "[data-role=compare-panes]")
	if !panes.Truthy() {
		return
	}
	tr := cameraTransform(s.cam)
	canvases := panes.Call("querySelectorAll", "canvas[data-role=slice]")
	for i := range canvases.Length() {
		canvases.Index(i).Get("style").Set("transform", tr)
	}
	panes.Call("setAttribute", "data-pan", panText(s.cam))
	panes.Call("setAttribute", "data-zoom", exact(s.cam.Scale()))
}

// cameraTransform is the CSS transform that draws a picture with camera
// cam (inspect.Camera: translate, then scale about the top-left corner).
func cameraTransform(cam inspect.Camera) string {
	return fmt.Sprintf("translate(%.1fpx,%.1fpx) scale(%.4f)", cam.Pan.X, cam.Pan.Y, cam.Scale())
}

// panText is a camera's pan as data-pan holds it: "x,y", exactly.
func panText(cam inspect.Camera) string { return exact(cam.Pan.X) + "," + exact(cam.Pan.Y) }

// otherID returns the id of the pointer down other than id (-1 if none).
func (s *SliceView) otherID(id int) int {
	for k := range s.pointers {
		if k != id {
			return k
		}
	}
	return -1
}

func (s *SliceView) onPointerUp(ctx app.Context, e app.Event) {
	id := e.Get("pointerId").Int()
	if _, down := s.pointers[id]; !down {
		ctx.PreventUpdate()
		return
	}
	delete(s.pointers, id)
	s.pinch = pinchStart{} // a finger left: the other one drags on from where it is
	if !s.tap && len(s.pointers) == 0 {
		actionCamera.Send(ctx, s.cam) // a drag or pinch ended
	}
	// A tap (touch or pen) reads out the value under it; a mouse's hover
	// already did.
	if s.tap && e.Get("type").String() == "pointerup" && e.Get("pointerType").String() != "mouse" && len(s.pointers) == 0 {
		s.setHover(viewportPoint(e))
		return
	}
	ctx.PreventUpdate()
}

func (s *SliceView) onLeave(ctx app.Context, e app.Event) {
	if len(s.pointers) > 0 || !s.hover || e.Get("pointerType").String() != "mouse" {
		ctx.PreventUpdate()
		return
	}
	s.hover = false
}

// onWheel zooms about the pointer.
func (s *SliceView) onWheel(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if !s.cam.ZoomAbout(viewportPoint(e), inspect.WheelFactor(e.Get("deltaY").Float())) {
		ctx.PreventUpdate()
		return
	}
	actionCamera.Send(ctx, s.cam)
}

func (s *SliceView) resetZoom(ctx app.Context, e app.Event) {
	s.cam = inspect.Camera{}
	actionCamera.Send(ctx, s.cam)
}

// Render draws the viewport, the canvas and the readout.
func (s *SliceView) Render() app.UI {
	b := s.Img.Bounds()
	sc, box := s.scale(), s.boxSize()
	w, h := float64(b.Dx())*sc, float64(b.Dy())*sc
	zoom := s.cam.Scale()
	return app.Div().Class("slice").Body(
		app.Div().Class("viewport").Style("width", fmt.Sprintf("%.0fpx", math.Min(w, box))).Style("height", fmt.Sprintf("%.0fpx", math.Min(h, box))).
			OnWheel(s.onWheel).On("pointerdown", s.onPointerDown).On("pointermove", s.onPointerMove).
			On("pointerup", s.onPointerUp).On("pointercancel", s.onPointerUp).On("pointerleave", s.onLeave).Body(
			app.Canvas().Attr("data-role", "slice").Width(b.Dx()).Height(b.Dy()).
				Style("width", fmt.Sprintf("%.3fpx", w)).Style("height", fmt.Sprintf("%.3fpx", h)).
				Style("transform", cameraTransform(s.cam)),
			labelLayer(s.Labels, s.cam.Pan, zoom*sc),
		),
		app.Div().Class("zoom").Body(
			app.Span().Attr("data-role", "zoom").Text(fmt.Sprintf("zoom %.1f×", zoom)),
			app.If(s.cam.Moved(), func() app.UI {
				return app.Button().Type("button").Class("link").Attr("data-action", "reset-zoom").Text("reset").OnClick(s.resetZoom)
			}),
		),
		s.readout(),
	)
}

// readout is the value under the pointer, with its neighbours for a small
// tensor: their table's room is kept while the pointer is elsewhere, so
// that the dialog does not move under it on its way to another control.
func (s *SliceView) readout() app.UI {
	class := "readout"
	if s.Tensor.Len() <= neighbourMax {
		class += " with-neighbours"
	}
	if !s.hover {
		return app.Div().Class(class).Attr("data-role", "readout").Text("Point at or tap the picture to read a value.")
	}
	idx, text, ok := inspect.ValueAt(s.Tensor, s.View, s.hoverX, s.hoverY)
	if !ok {
		return app.Div().Class(class).Attr("data-role", "readout")
	}
	names := make([]string, len(idx))
	for k, i := range idx {
		label := ""
		if k < len(s.Tensor.DimNames) && s.Tensor.DimNames[k] != "" {
			label = s.Tensor.DimNames[k] + "="
		}
		if i < 0 {
			names[k] = label + ":"
		} else {
			names[k] = fmt.Sprintf("%s%d", label, i)
		}
	}
	var table [][]string
	if s.Tensor.Len() <= neighbourMax {
		table = inspect.Neighbourhood(s.Tensor, s.View, s.hoverX, s.hoverY, 2)
	}
	return app.Div().Class(class).Attr("data-role", "readout").
		Attr("data-index", tensorext.JoinShape(idx)).Attr("data-value", text).Body(
		app.Code().Text("["+strings.Join(names, ", ")+"] = "),
		app.Strong().Text(text),
		app.If(s.Probe.Mask.Values != nil, func() app.UI {
			return app.Span().Attr("data-role", "mask-value").Text(", " + s.Probe.Text(s.hoverX, s.hoverY))
		}),
		app.If(s.Boxes.text(s.hoverX, s.hoverY) != "", func() app.UI {
			return app.Span().Attr("data-role", "box-value").Text("; " + s.Boxes.text(s.hoverX, s.hoverY))
		}),
		app.If(s.Also != nil, func() app.UI {
			return app.Span().Attr("data-role", "compare-values").Text(", " + s.Also(s.hoverX, s.hoverY))
		}),
		app.If(len(table) > 0, func() app.UI {
			return app.Table().Class("neighbours").Attr("data-role", "neighbours").Body(
				app.Range(table).Slice(func(r int) app.UI {
					return app.Tr().Body(app.Range(table[r]).Slice(func(c int) app.UI {
						td := app.Td().Text(table[r][c])
						if r == len(table)/2 && c == len(table[r])/2 {
							td = td.Class("centre")
						}
						return td
					}))
				}),
			)
		}),
	)
}
