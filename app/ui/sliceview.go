package ui

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/tensorext"
)

// Display geometry of the inspector's picture, in CSS pixels.
const (
	sliceBox     = 512 // the picture fits this square at zoom 1
	maxZoom      = 64
	neighbourMax = 64 * 64 // tensors up to this many elements get a table of values around the pointer
)

// SliceView draws the inspector's picture one canvas pixel per element,
// zooms with the wheel (nearest-neighbour pixels), pans by dragging, and
// reads out the index and exact value under the pointer.
type SliceView struct {
	app.Compo
	Tensor tensorext.Tensor
	View   inspect.View
	Img    *image.RGBA

	zoom         float64
	panX, panY   float64
	dragging     bool
	lastX, lastY float64
	hoverX       int
	hoverY       int
	hover        bool
}

// OnMount draws the picture.
func (s *SliceView) OnMount(ctx app.Context) { s.zoom = 1; s.draw() }

// OnUpdate redraws once the canvas has its new size.
func (s *SliceView) OnUpdate(ctx app.Context) {
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
	putImage(el.Call("querySelector", "canvas[data-role=slice]"), s.Img)
}

// scale is the CSS size of one element at zoom 1.
func (s *SliceView) scale() float64 {
	b := s.Img.Bounds()
	return math.Min(float64(sliceBox)/float64(b.Dx()), float64(sliceBox)/float64(b.Dy()))
}

// pixelAt maps a pointer position to the picture pixel under it.
func (s *SliceView) pixelAt(e app.Event) (x, y int, ok bool) {
	canvas := e.Get("target")
	r := canvas.Call("getBoundingClientRect")
	w, h := r.Get("width").Float(), r.Get("height").Float()
	if w <= 0 || h <= 0 {
		return 0, 0, false
	}
	b := s.Img.Bounds()
	fx := (e.Get("clientX").Float() - r.Get("left").Float()) / w * float64(b.Dx())
	fy := (e.Get("clientY").Float() - r.Get("top").Float()) / h * float64(b.Dy())
	x, y = int(math.Floor(fx)), int(math.Floor(fy))
	return x, y, x >= 0 && y >= 0 && x < b.Dx() && y < b.Dy()
}

func (s *SliceView) onMove(ctx app.Context, e app.Event) {
	if s.dragging {
		cx, cy := e.Get("clientX").Float(), e.Get("clientY").Float()
		s.panX += cx - s.lastX
		s.panY += cy - s.lastY
		s.lastX, s.lastY = cx, cy
		return
	}
	x, y, ok := s.pixelAt(e)
	if ok == s.hover && x == s.hoverX && y == s.hoverY {
		ctx.PreventUpdate()
		return
	}
	s.hover, s.hoverX, s.hoverY = ok, x, y
}

func (s *SliceView) onLeave(ctx app.Context, e app.Event) {
	s.dragging = false
	if !s.hover {
		ctx.PreventUpdate()
		return
	}
	s.hover = false
}

func (s *SliceView) onDown(ctx app.Context, e app.Event) {
	if e.Get("button").Int() != 0 {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	s.dragging = true
	s.lastX, s.lastY = e.Get("clientX").Float(), e.Get("clientY").Float()
	ctx.PreventUpdate()
}

func (s *SliceView) onUp(ctx app.Context, e app.Event) {
	s.dragging = false
	ctx.PreventUpdate()
}

// onWheel zooms about the pointer.
func (s *SliceView) onWheel(ctx app.Context, e app.Event) {
	e.PreventDefault()
	factor := math.Pow(1.0015, -e.Get("deltaY").Float())
	z := math.Max(1, math.Min(maxZoom, s.zoom*factor))
	if z == s.zoom {
		ctx.PreventUpdate()
		return
	}
	// Keep the point under the pointer fixed: positions are relative to the
	// viewport element's top-left corner.
	vp := e.Get("currentTarget").Call("getBoundingClientRect")
	px := e.Get("clientX").Float() - vp.Get("left").Float()
	py := e.Get("clientY").Float() - vp.Get("top").Float()
	s.panX = px - (px-s.panX)*z/s.zoom
	s.panY = py - (py-s.panY)*z/s.zoom
	s.zoom = z
}

func (s *SliceView) resetZoom(ctx app.Context, e app.Event) {
	s.zoom, s.panX, s.panY = 1, 0, 0
}

// Render draws the viewport, the canvas and the readout.
func (s *SliceView) Render() app.UI {
	b := s.Img.Bounds()
	sc := s.scale()
	w, h := float64(b.Dx())*sc, float64(b.Dy())*sc
	zoom := s.zoom
	if zoom == 0 {
		zoom = 1
	}
	return app.Div().Class("slice").Body(
		app.Div().Class("viewport").Style("width", fmt.Sprintf("%.0fpx", math.Min(w, sliceBox))).Style("height", fmt.Sprintf("%.0fpx", math.Min(h, sliceBox))).
			OnWheel(s.onWheel).OnMouseDown(s.onDown).OnMouseUp(s.onUp).Body(
			app.Canvas().Attr("data-role", "slice").Width(b.Dx()).Height(b.Dy()).
				Style("width", fmt.Sprintf("%.3fpx", w)).Style("height", fmt.Sprintf("%.3fpx", h)).
				Style("transform", fmt.Sprintf("translate(%.1fpx,%.1fpx) scale(%.4f)", s.panX, s.panY, zoom)).
				OnMouseMove(s.onMove).OnMouseLeave(s.onLeave),
		),
		app.Div().Class("zoom").Body(
			app.Span().Attr("data-role", "zoom").Text(fmt.Sprintf("zoom %.1f×", zoom)),
			app.If(zoom != 1 || s.panX != 0 || s.panY != 0, func() app.UI {
				return app.Button().Type("button").Class("link").Attr("data-action", "reset-zoom").Text("reset").OnClick(s.resetZoom)
			}),
		),
		s.readout(),
	)
}

func (s *SliceView) readout() app.UI {
	if !s.hover {
		return app.Div().Class("readout").Attr("data-role", "readout").Text("Point at the picture to read a value.")
	}
	idx, text, ok := inspect.ValueAt(s.Tensor, s.View, s.hoverX, s.hoverY)
	if !ok {
		return app.Div().Class("readout").Attr("data-role", "readout")
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
	return app.Div().Class("readout").Attr("data-role", "readout").
		Attr("data-index", tensorext.JoinShape(idx)).Attr("data-value", text).Body(
		app.Code().Text("["+strings.Join(names, ", ")+"] = "),
		app.Strong().Text(text),
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
