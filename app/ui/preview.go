package ui

import (
	"image"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/raster"
)

// Preview draws an image into a canvas whose intrinsic size is the image's
// own size, one canvas pixel per image pixel; CSS scales it for display.
// An image larger than Box (device pixels) is sampled down to it first, so
// that the page copies and composites only the pixels it shows.
type Preview struct {
	app.Compo
	Img  *image.RGBA
	Kind string // "rgb", "rgba", "gray" or "strip" (stretched by CSS: never sampled down)
	Box  [2]int // the largest canvas width and height drawn (0: the image's own size)
}

// OnMount draws the image once the canvas exists.
func (p *Preview) OnMount(ctx app.Context) { p.draw() }

// OnUpdate redraws after the canvas has taken its new size.
func (p *Preview) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { p.draw() }) }

// Render draws the canvas element.
func (p *Preview) Render() app.UI {
	b := p.image().Bounds()
	return app.Canvas().Class("preview").Attr("data-preview", p.Kind).Width(b.Dx()).Height(b.Dy())
}

func (p *Preview) draw() {
	putImage(p.JSValue(), p.image())
	mark("preview-drawn")
}

// image is the image drawn: Img, sampled down to fit Box.
func (p *Preview) image() *image.RGBA {
	if p.Kind == string(raster.Strip) {
		return p.Img
	}
	return raster.Shrink(p.Img, p.Box[0], p.Box[1])
}
